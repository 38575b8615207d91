package io.github.chash.aspect;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
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
 * }</pre>
 *
 * <p><b>Keys.</b> The routing key is {@code cache + ":" + canonicalKey}. The method is never part
 * of the key, so give each method its own cache. Key expressions: {@code #name} (needs classes
 * compiled with {@code -parameters}), {@code #p0}/{@code #a0} (always work), property paths {@code
 * #user.id} (getter {@code getId()}/{@code isId()}, record component {@code id()}, or public
 * field), quoted literals {@code 'x'} and {@code +}. An expression is compiled once, at the
 * method's first call; a bad one, or an unknown cache, fails that call with a message naming the
 * method, the expression and the position.
 *
 * <p><b>Return types.</b> {@code Optional}: the content is cached, and empty counts as null. {@code
 * CompletableFuture}/{@code CompletionStage}: the value is cached when the future completes
 * normally, and a hit returns a completed future; the future itself is never cached.
 *
 * <p>A cache backend failure never reaches the caller: the call becomes a miss and the method runs.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ShardedCacheable {

  /** The cache name: an entry of {@code caches:} in {@code chash.yaml}. */
  String cache();

  /** The key expression; empty (the default) means all arguments, canonically joined. */
  String key() default "";

  /**
   * Time to live of entries written by this method, written as in {@code chash.yaml} ({@code
   * 100ms}, {@code 30s}, {@code 10m}, {@code 2h}, {@code 1d}); empty means the cache's configured
   * ttl.
   */
  String ttl() default "";

  /**
   * Whether concurrent misses of the same key in one JVM compute the value once, the other callers
   * waiting for it (stampede protection).
   */
  boolean sync() default false;

  /**
   * Whether a {@code null} result (or an empty {@code Optional}) is cached; by default it is not,
   * and the next call runs the method again.
   */
  boolean cacheNull() default false;
}
