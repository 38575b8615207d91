package io.github.chash.aspect;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Caches a method's result in a sharded cache: the call's key is routed through the ring to the
 * node that owns it; on a hit the method does not run.
 *
 * <pre>{@code
 * @ShardedCacheable(cache = "users", key = "#id")
 * public User find(long id) { ... }
 *
 * @ShardedCacheable(cache = "orders", key = "#customer.id + ':' + #year", sync = true)
 * public List<Order> orders(Customer customer, int year) { ... }
 *
 * @ShardedCacheable(cache = "prices")        // no key: all arguments, canonically joined
 * public CompletableFuture<Price> price(String sku, Currency currency) { ... }
 *
 * @ShardedCacheable(cache = "products", condition = "#id > 0", unless = "#result.draft")
 * public Product product(long id) { ... }
 * }</pre>
 *
 * <p><b>Keys.</b> The routing key is {@code cache + ":" + canonicalKey}. The method is never part
 * of the key, so give each method its own cache. Key expressions: {@code #name} (a parameter by
 * name: needs the names in the class file, see below), {@code #p0}/{@code #a0} (always work),
 * property paths {@code #user.id} (getter {@code getId()}/{@code isId()}, record component {@code
 * id()}, or public field), {@code #root.methodName}, {@code #root.args} (all arguments), quoted
 * literals {@code 'x'} and {@code +}. Under AspectJ weaving, {@code #name} reads the names the
 * weaver finds in the class file (javac's debug information, Maven's default, or {@code
 * -parameters}); Spring proxies need {@code -parameters}. An expression is compiled once, at the
 * method's first call; a bad one, or an unknown cache, fails that call with a message naming the
 * method, the expression and the position.
 *
 * <p><b>Conditions.</b> {@link #condition()} and {@link #unless()} are small boolean expressions:
 * the key's references and literals (also numbers, {@code true}, {@code false}, {@code null}),
 * compared with {@code == != < <= > >=} and combined with {@code and}, {@code or}, {@code not} and
 * parentheses. No method calls, no arithmetic. The annotations page of the site specifies them.
 *
 * <p><b>Return types.</b> {@code Optional}: the content is cached, and empty counts as null. {@code
 * CompletableFuture}/{@code CompletionStage}: the value is cached when the future completes
 * normally, and a hit returns a completed future; the future itself is never cached.
 *
 * <p>Repeatable: with several on one method, the first one that holds the key answers, and a miss
 * runs the method once and stores the result in each (a hit in a later one fills the earlier).
 *
 * <p>A cache backend failure never reaches the caller: the call becomes a miss and the method runs.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(ShardedCacheable.List.class)
public @interface ShardedCacheable {

  /**
   * {@return the cache name: an entry of {@code caches:} in {@code chash.yaml}; empty (the default)
   * takes the class's {@link ShardedCacheConfig#cache()}}
   */
  String cache() default "";

  /** {@return the key expression; empty (the default) means all arguments, canonically joined} */
  String key() default "";

  /**
   * {@return when to use the cache at all, tested before the method runs: when false, the method
   * runs and nothing is looked up or stored} Empty (the default) means always. Example: {@code "#id
   * > 0"}.
   */
  String condition() default "";

  /**
   * {@return when not to store a result, tested after the method ran, with {@code #result} (the
   * value that would be cached: an {@code Optional}'s content, a future's value)} Empty (the
   * default) means always store. Not with {@link #sync()}. Example: {@code "#result == null or
   * #result.draft"}.
   */
  String unless() default "";

  /**
   * {@return time to live of entries written by this method, written as in {@code chash.yaml}
   * ({@code 100ms}, {@code 30s}, {@code 10m}, {@code 2h}, {@code 1d}); empty means the class's
   * {@link ShardedCacheConfig#ttl()}, else the cache's configured ttl}
   */
  String ttl() default "";

  /**
   * {@return whether concurrent misses of the same key in one JVM compute the value once, the other
   * callers waiting for it (stampede protection)} Only on a method with no other chash annotation,
   * and without {@link #unless()}.
   */
  boolean sync() default false;

  /**
   * {@return whether a {@code null} result (or an empty {@code Optional}) is cached; by default it
   * is not, and the next call runs the method again}
   */
  boolean cacheNull() default false;

  /** Several {@link ShardedCacheable} on one method; the compiler writes it for you. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  @interface List {
    /** {@return the annotations, in declaration order} */
    ShardedCacheable[] value();
  }
}
