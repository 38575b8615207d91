package io.github.chash.internal.cache;

import io.github.chash.cache.CanonicalKeys;
import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.ring.RoutingKey;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/**
 * Internal: a {@link ShardedCache} as an interceptor calls it, the annotations' aspect and the
 * Spring Boot starter's cache adapter. Every operation takes a <em>routing key</em>, {@code name()
 * + ":" + canonicalKey}: a {@link RoutingKey} made once per call by {@link #key(Object, String)}
 * and handed through the whole operation (the ring hashes its bytes, a local node looks its entry
 * up with it), or its text ({@link #routingKey(Object, String)}), of which each operation makes the
 * {@code RoutingKey}. The live ring maps it to a node. Values are handled in their stored form
 * ({@link NullValue#INSTANCE} for a cached null). Every cache a {@link ShardedCacheManager} returns
 * is one; see {@link #of(ShardedCache)}. Not an API: the runtime's module exports this package to
 * chash's own modules only.
 *
 * <p>Typical interceptor use:
 *
 * <pre>{@code
 * InterceptedCache cache = InterceptedCache.of(manager.cache("orders"));   // once per method
 * RoutingKey key = cache.key(keyObject, "OrderService.find(customer)");
 * Object v = cache.getIfPresent(key, valueType);
 * if (v != null) return NullValue.unwrap(v);
 * return cache.load(key, valueType, joinPoint::proceed, sync, cacheNull);
 * }</pre>
 *
 * <p>A hit on a local node costs the routing key (one object and its bytes), the ring lookup, the
 * node's lookup and two counter increments: no locks, no string.
 */
public interface InterceptedCache extends ShardedCache {

  /**
   * {@return the interceptor's view of a cache a {@link ShardedCacheManager} returned}
   *
   * @param cache a cache of chash's manager
   * @throws IllegalArgumentException if the cache was not made by chash's manager
   */
  static InterceptedCache of(ShardedCache cache) {
    if (cache instanceof InterceptedCache intercepted) {
      return intercepted;
    }
    throw new IllegalArgumentException(
        "cache \""
            + cache.name()
            + "\" is a "
            + cache.getClass().getName()
            + ", not a cache of chash's ShardedCacheManager");
  }

  /**
   * {@return a handle to the same cache (same entries and stats) whose writes use another TTL, for
   * a method that overrides the cache's TTL} Create it once per method.
   *
   * @param ttl positive, or {@code null} for no expiry
   * @throws IllegalArgumentException if {@code ttl} is zero or negative
   */
  InterceptedCache withTtl(Duration ttl);

  /**
   * {@return the routing key {@code name() + ":" + CanonicalKeys.of(key)}} A string key costs one
   * string concatenation.
   *
   * @param key the key object; its canonical form follows {@link CanonicalKeys}
   * @param where what the key belongs to, for the error message, e.g. {@code
   *     OrderService.find(customer)}; a constant, not built per call
   * @throws IllegalArgumentException if the key has no stable form (see {@link CanonicalKeys})
   */
  String routingKey(Object key, String where);

  /**
   * {@return the routing key of {@link #routingKey(Object, String)} as a {@link RoutingKey}, built
   * from the cache's prefix and the key's form without a string: the key of one call}
   *
   * @param key the key object; its canonical form follows {@link CanonicalKeys}
   * @param where what the key belongs to, for the error message; a constant, not built per call
   * @throws IllegalArgumentException if the key has no stable form (see {@link CanonicalKeys})
   */
  RoutingKey key(Object key, String where);

  /**
   * {@return {@link #key(Object, String)} of a {@code long} key, unboxed}
   *
   * @param key the key
   */
  RoutingKey key(long key);

  /**
   * {@return the routing key of a whole argument list ({@link CanonicalKeys#ofArguments})}
   *
   * @param args the call's arguments
   * @param method how messages name the method
   * @param parameterNames the method's parameter names, or null when unknown
   * @throws IllegalArgumentException if an argument has no stable form, naming method and parameter
   */
  RoutingKey keyOfArguments(Object[] args, String method, String[] parameterNames);

  /**
   * {@return the cached value, {@link NullValue#INSTANCE} for a cached null, or {@code null} on a
   * miss (including when the node fails)} Counts a hit or a miss.
   *
   * @param routingKey a key from {@link #key}
   * @param type the type remote nodes decode to
   */
  Object getIfPresent(RoutingKey routingKey, ValueType type);

  /**
   * {@return {@link #getIfPresent(RoutingKey, ValueType)} of a routing key's text}
   *
   * @param routingKey a key from {@link #key}
   * @param type the type remote nodes decode to
   */
  default Object getIfPresent(String routingKey, ValueType type) {
    return getIfPresent(RoutingKey.of(routingKey), type);
  }

  /**
   * Loads a value after {@link #getIfPresent} missed, stores it, and returns it.
   *
   * <p>With {@code sync}, one caller per routing key and JVM runs the loader while later callers
   * wait and receive its value or its throwable; the winner first looks again, in case a load
   * finished just before. A loader that throws stores nothing and its throwable propagates,
   * unwrapped, to the caller and every waiter. A {@code null} result is stored (as {@link
   * NullValue#INSTANCE}) only when {@code cacheNull}.
   *
   * @param <V> the value type
   * @param routingKey a key from {@link #key}
   * @param type the type remote nodes decode to
   * @param loader computes the value on a miss; may return null
   * @param sync whether concurrent misses of the key in this JVM load once, the others waiting
   * @param cacheNull whether a null value is cached
   * @return the loaded value (null possible)
   * @throws Throwable whatever the loader threw
   */
  <V> V load(
      RoutingKey routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable;

  /**
   * {@link #load(RoutingKey, ValueType, ValueLoader, boolean, boolean)} of a routing key's text.
   *
   * @param <V> the value type
   * @param routingKey a key from {@link #routingKey}
   * @param type the type remote nodes decode to
   * @param loader computes the value on a miss; may return null
   * @param sync whether concurrent misses of the key in this JVM load once, the others waiting
   * @param cacheNull whether a null value is cached
   * @return the loaded value (null possible)
   * @throws Throwable whatever the loader threw
   */
  default <V> V load(
      String routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable {
    return load(RoutingKey.of(routingKey), type, loader, sync, cacheNull);
  }

  /**
   * {@return the cached value (a cached null as {@code null}), else loads it as {@link #load} does:
   * {@link #getIfPresent} and {@link #load} in one call}
   *
   * @param <V> the value type
   * @param routingKey a key from {@link #key}
   * @param type the type remote nodes decode to
   * @param loader computes the value on a miss; may return null
   * @param sync whether concurrent misses of the key in this JVM load once, the others waiting
   * @param cacheNull whether a null value is cached
   * @throws Throwable whatever the loader threw
   */
  <V> V get(
      RoutingKey routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable;

  /**
   * {@return {@link #get(RoutingKey, ValueType, ValueLoader, boolean, boolean)} of a routing key's
   * text}
   *
   * @param <V> the value type
   * @param routingKey a key from {@link #routingKey}
   * @param type the type remote nodes decode to
   * @param loader computes the value on a miss; may return null
   * @param sync whether concurrent misses of the key in this JVM load once, the others waiting
   * @param cacheNull whether a null value is cached
   * @throws Throwable whatever the loader threw
   */
  default <V> V get(
      String routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable {
    return get(RoutingKey.of(routingKey), type, loader, sync, cacheNull);
  }

  /**
   * Loads a value computed by a future, for a method that returns one, after {@link #getIfPresent}
   * missed: starts the future, returns it, and stores its value when it completes if {@code
   * storable} accepts the value (a {@code null} as a cached null). Like a {@link #load}, the value
   * is not stored when a write of the key began after the start, so a slow future never overwrites
   * a newer {@link #put}. With {@code sync}, concurrent callers in this JVM share one running load
   * per routing key (a blocking one or a future's) without blocking: they get a stage that
   * completes with its value or its throwable. A future that fails stores nothing; a loader that
   * returns {@code null} instead of a future gets {@code null} back, and stores nothing.
   *
   * @param <V> the value type
   * @param routingKey a key from {@link #key}
   * @param type the type remote nodes decode to
   * @param loader starts the computation
   * @param sync whether concurrent callers in this JVM share one running load
   * @param storable whether a completed value is stored
   * @return the started future, a stage of the shared load, or a completed one on a second look's
   *     hit
   * @throws Throwable whatever starting the future threw
   */
  <V> CompletionStage<V> loadFuture(
      RoutingKey routingKey,
      ValueType type,
      FutureLoader<V> loader,
      boolean sync,
      Predicate<? super V> storable)
      throws Throwable;

  /**
   * {@return {@link #loadFuture(RoutingKey, ValueType, FutureLoader, boolean, Predicate)} of a
   * routing key's text}
   *
   * @param <V> the value type
   * @param routingKey a key from {@link #routingKey}
   * @param type the type remote nodes decode to
   * @param loader starts the computation
   * @param sync whether concurrent callers in this JVM share one running load
   * @param storable whether a completed value is stored
   * @throws Throwable whatever starting the future threw
   */
  default <V> CompletionStage<V> loadFuture(
      String routingKey,
      ValueType type,
      FutureLoader<V> loader,
      boolean sync,
      Predicate<? super V> storable)
      throws Throwable {
    return loadFuture(RoutingKey.of(routingKey), type, loader, sync, storable);
  }

  /**
   * Stores a value on the key's node, with this handle's TTL. A {@code null} value is stored as a
   * cached null; callers that do not cache nulls should call {@link #evict} instead.
   *
   * @param routingKey a key from {@link #key}
   * @param value the value, may be null
   */
  void put(RoutingKey routingKey, Object value);

  /**
   * {@link #put(RoutingKey, Object)} of a routing key's text.
   *
   * @param routingKey a key from {@link #routingKey}
   * @param value the value, may be null
   */
  default void put(String routingKey, Object value) {
    put(RoutingKey.of(routingKey), value);
  }

  /**
   * Removes the key's entry from its owner and its first fallback node (preference-list positions 0
   * and 1 of the configured ring, and the live owner if it differs), so a value written while the
   * owner was ejected is not served later. Ejected nodes are skipped.
   *
   * @param routingKey a key from {@link #key}
   */
  void evict(RoutingKey routingKey);

  /**
   * {@link #evict(RoutingKey)} of a routing key's text.
   *
   * @param routingKey a key from {@link #routingKey}
   */
  default void evict(String routingKey) {
    evict(RoutingKey.of(routingKey));
  }
}
