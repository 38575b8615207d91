package io.github.chash.cache;

import java.time.Duration;

/**
 * One named cache whose entries are spread over the nodes of a {@link ShardedCacheManager}: the
 * handle an interceptor obtains once per method and calls on every invocation.
 *
 * <p>Every operation takes a <em>routing key</em>, {@code name() + ":" + canonicalKey}, made by
 * {@link #routingKey(Object, String)}; the live ring maps it to a node. No operation throws because
 * of a node: a failing or slow node is a miss (the loader runs), a failed write or eviction is
 * skipped, and both are counted in {@link #stats()} and the node's stats. Once the manager is
 * {@linkplain ShardedCacheManager#close() closed}, the operations that reach a node throw {@link
 * IllegalStateException} naming the cache, rather than quietly loading without caching.
 *
 * <p>No stale reads: within one JVM a read returns the value of the last completed write of the
 * key, or a miss, through failures, ejections, readmissions and flapping nodes. A write that did
 * not land (failed, timed out, refused) leaves the key unreadable on that node until a later write
 * lands; a value loaded while a write of the same key ran is not stored.
 *
 * <p>A hit costs the ring lookup, the node's lookup and two counter increments: no locks, no
 * allocation. Implementations are thread-safe.
 *
 * <p>Typical interceptor use:
 *
 * <pre>{@code
 * String key = cache.routingKey(keyObject, "OrderService.find(customer)");
 * Object v = cache.getIfPresent(key, valueType);
 * if (v != null) return NullValue.unwrap(v);
 * return cache.load(key, valueType, joinPoint::proceed, sync, cacheNull);
 * }</pre>
 */
public interface ShardedCache {

  /** {@return the cache name, as in {@code chash.yaml}} */
  String name();

  /**
   * {@return this cache with values of one type and keys of any type with a canonical form: the API
   * for programmatic use} Create it once and keep it.
   *
   * @param <V> the value type
   * @param valueType the values' class
   */
  <V> TypedCache<Object, V> typed(Class<V> valueType);

  /**
   * {@return this cache with keys and values of given types; see {@link #typed(Class)}}
   *
   * @param <K> the key type
   * @param <V> the value type
   * @param keyType the keys' class
   * @param valueType the values' class
   */
  <K, V> TypedCache<K, V> typed(Class<K> keyType, Class<V> valueType);

  /** {@return time to live of the entries this handle writes; {@code null} for no expiry} */
  Duration ttl();

  /**
   * {@return a handle to the same cache (same entries and stats) whose writes use another TTL, for
   * a method that overrides the cache's TTL} Create it once per method.
   *
   * @param ttl positive, or {@code null} for no expiry
   * @throws IllegalArgumentException if {@code ttl} is zero or negative
   */
  ShardedCache withTtl(Duration ttl);

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
   * {@return the routing key of a whole argument list ({@link CanonicalKeys#ofArguments})}
   *
   * @param args the call's arguments
   * @param method how messages name the method
   * @param parameterNames the method's parameter names, or null when unknown
   * @throws IllegalArgumentException if an argument has no stable form, naming method and parameter
   */
  String routingKeyOfArguments(Object[] args, String method, String[] parameterNames);

  /**
   * {@return the cached value, {@link NullValue#INSTANCE} for a cached null, or {@code null} on a
   * miss (including when the node fails)} Counts a hit or a miss.
   *
   * @param routingKey a key from {@link #routingKey}
   * @param type the type remote nodes decode to
   */
  Object getIfPresent(String routingKey, ValueType type);

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
   * @param routingKey a key from {@link #routingKey}
   * @param type the type remote nodes decode to
   * @param loader computes the value on a miss; may return null
   * @param sync whether concurrent misses of the key in this JVM load once, the others waiting
   * @param cacheNull whether a null value is cached
   * @return the loaded value (null possible)
   * @throws Throwable whatever the loader threw
   */
  <V> V load(
      String routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable;

  /**
   * {@return the cached value (a cached null as {@code null}), else loads it as {@link #load} does:
   * {@link #getIfPresent} and {@link #load} in one call}
   *
   * @param <V> the value type
   * @param routingKey a key from {@link #routingKey}
   * @param type the type remote nodes decode to
   * @param loader computes the value on a miss; may return null
   * @param sync whether concurrent misses of the key in this JVM load once, the others waiting
   * @param cacheNull whether a null value is cached
   * @throws Throwable whatever the loader threw
   */
  <V> V get(
      String routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable;

  /**
   * Stores a value on the key's node, with this handle's TTL. A {@code null} value is stored as a
   * cached null; callers that do not cache nulls should call {@link #evict} instead.
   *
   * @param routingKey a key from {@link #routingKey}
   * @param value the value, may be null
   */
  void put(String routingKey, Object value);

  /**
   * Removes the key's entry from its owner and its first fallback node (preference-list positions 0
   * and 1 of the configured ring, and the live owner if it differs), so a value written while the
   * owner was ejected is not served later. Ejected nodes are skipped.
   *
   * @param routingKey a key from {@link #routingKey}
   */
  void evict(String routingKey);

  /**
   * Removes every entry of this cache from every node, and nothing else (no other cache's keys, no
   * other application's). A node that is out, or whose clear fails, is cleared before it serves
   * again. Costs a scan of each node's keys (a Redis node: {@code SCAN MATCH} and {@code UNLINK}).
   */
  void clear();

  /** {@return a snapshot of this cache's counters ({@link CacheStats#ejectionCount()} is 0)} */
  CacheStats stats();
}
