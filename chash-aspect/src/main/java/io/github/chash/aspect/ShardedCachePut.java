package io.github.chash.aspect;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
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
 * }</pre>
 *
 * <p>Keys follow the rules of {@link ShardedCacheable#key()}, so the expression must produce the
 * same key as the reading method's. The key is evaluated after the method returns, so it sees what
 * the method set on its arguments (an id assigned on save, say). A {@code null} result (or an empty
 * {@code Optional}) evicts the key; a {@code CompletableFuture} result is stored when it completes
 * normally. A method that throws stores nothing. A cache backend failure never reaches the caller.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ShardedCachePut {

  /** The cache name: an entry of {@code caches:} in {@code chash.yaml}. */
  String cache();

  /** The key expression; empty (the default) means all arguments, canonically joined. */
  String key() default "";
}
