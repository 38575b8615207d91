package io.github.chash.aspect;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Always runs the method and stores its result under the call's key, replacing what was cached; the
 * way to refresh an entry after an update.
 *
 * <pre>{@code
 * @ShardedCachePut(cache = "users", key = "#user.id")
 * public User save(User user) { ... }
 *
 * @ShardedCachePut(cache = "users", key = "#result.id")       // the id the method assigned
 * @ShardedCachePut(cache = "usersByEmail", key = "#result.email")
 * public User create(NewUser user) { ... }
 * }</pre>
 *
 * <p>Keys follow the rules of {@link ShardedCacheable#key()}, so the expression must produce the
 * same key as the reading method's, and may also use {@code #result}. The key, {@link #condition()}
 * and {@link #unless()} are evaluated after the method returns, so they see what the method set on
 * its arguments and what it returned. A {@code null} result (or an empty {@code Optional}) evicts
 * the key, and so does a result {@link #unless()} refuses, so an older value is never served; a
 * {@code CompletableFuture} result is stored when it completes normally. A method that throws
 * stores nothing. A cache backend failure never reaches the caller. Repeatable: each one stores.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(ShardedCachePut.List.class)
public @interface ShardedCachePut {

  /**
   * {@return the cache name: an entry of {@code caches:} in {@code chash.yaml}; empty (the default)
   * takes the class's {@link ShardedCacheConfig#cache()}}
   */
  String cache() default "";

  /** {@return the key expression; empty (the default) means all arguments, canonically joined} */
  String key() default "";

  /**
   * {@return when to store at all, tested after the method returned, with {@code #result}; when
   * false the cache is left alone} Empty (the default) means always.
   */
  String condition() default "";

  /**
   * {@return when not to store the result (the key is evicted instead), with {@code #result}; empty
   * (the default) means always store} Example: {@code "#result.draft"}.
   */
  String unless() default "";

  /**
   * {@return time to live of the entries written, as {@link ShardedCacheable#ttl()}; empty means
   * the class's {@link ShardedCacheConfig#ttl()}, else the cache's configured ttl}
   */
  String ttl() default "";

  /** Several {@link ShardedCachePut} on one method; the compiler writes it for you. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  @interface List {
    /** {@return the annotations, in declaration order} */
    ShardedCachePut[] value();
  }
}
