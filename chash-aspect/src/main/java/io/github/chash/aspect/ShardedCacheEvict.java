package io.github.chash.aspect;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Removes the call's key from a sharded cache (from the owning node and its first fallback), or
 * every entry of the cache.
 *
 * <pre>{@code
 * @ShardedCacheEvict(cache = "users", key = "#id")
 * public void delete(long id) { ... }
 *
 * @ShardedCacheEvict(cache = "users", key = "#user.id", beforeInvocation = true)
 * public void rename(User user, String name) { ... }
 *
 * @ShardedCacheEvict(cache = "users", key = "#id")
 * @ShardedCacheEvict(cache = "reports", allEntries = true)
 * public void merge(long id, long into) { ... }
 * }</pre>
 *
 * <p>Keys follow the rules of {@link ShardedCacheable#key()} and, after the method, may use {@code
 * #result}. By default the key is evicted after the method returns normally (or, for a {@code
 * CompletableFuture}, completes normally), so a failed update leaves the cache alone. A cache
 * backend failure never reaches the caller. Repeatable: each one evicts.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(ShardedCacheEvict.List.class)
public @interface ShardedCacheEvict {

  /**
   * {@return the cache name: an entry of {@code caches:} in {@code chash.yaml}; empty (the default)
   * takes the class's {@link ShardedCacheConfig#cache()}}
   */
  String cache() default "";

  /** {@return the key expression; empty (the default) means all arguments, canonically joined} */
  String key() default "";

  /**
   * {@return when to evict at all; empty (the default) means always} Tested when the eviction would
   * happen: after the method (with {@code #result}), or before it with {@link #beforeInvocation()}.
   */
  String condition() default "";

  /**
   * {@return whether to evict before the method runs, so the key is gone even if the method throws}
   */
  boolean beforeInvocation() default false;

  /**
   * {@return whether to remove every entry of the cache (this cache's keys on every node, found by
   * their prefix; other caches and data on the same servers are left alone) instead of one key}
   * Takes no {@link #key()}.
   */
  boolean allEntries() default false;

  /** Several {@link ShardedCacheEvict} on one method; the compiler writes it for you. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  @interface List {
    /** {@return the annotations, in declaration order} */
    ShardedCacheEvict[] value();
  }
}
