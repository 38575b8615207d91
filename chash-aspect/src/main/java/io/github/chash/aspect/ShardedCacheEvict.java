package io.github.chash.aspect;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Removes the call's key from a sharded cache (from the owning node and its first fallback).
 *
 * <pre>{@code
 * @ShardedCacheEvict(cache = "users", key = "#id")
 * public void delete(long id) { ... }
 *
 * @ShardedCacheEvict(cache = "users", key = "#user.id", beforeInvocation = true)
 * public void rename(User user, String name) { ... }
 * }</pre>
 *
 * <p>Keys follow the rules of {@link ShardedCacheable#key()}. By default the key is evicted after
 * the method returns normally (or, for a {@code CompletableFuture}, completes normally), so a
 * failed update leaves the cache alone. A cache backend failure never reaches the caller.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ShardedCacheEvict {

  /** The cache name: an entry of {@code caches:} in {@code chash.yaml}. */
  String cache();

  /** The key expression; empty (the default) means all arguments, canonically joined. */
  String key() default "";

  /** Whether to evict before the method runs, so the key is gone even if the method throws. */
  boolean beforeInvocation() default false;
}
