package io.github.chash.cache;

import java.time.Duration;

/**
 * One named cache whose entries are spread over the nodes of a {@link ShardedCacheManager}. Use it
 * through a typed view, {@link #typed(Class, Class)}, created once and kept:
 *
 * <pre>{@code
 * TypedCache<Long, User> users = manager.cache("users").typed(Long.class, User.class);
 * User u = users.get(42L, id -> repository.load(id));
 * }</pre>
 *
 * <p>No operation throws because of a node: a failing or slow node is a miss (the loader runs), a
 * failed write or eviction is skipped, and both are counted in {@link #stats()} and the node's
 * stats. Once the manager is {@linkplain ShardedCacheManager#close() closed}, the operations that
 * reach a node throw {@link IllegalStateException} naming the cache, rather than quietly loading
 * without caching.
 *
 * <p>No stale reads: within one JVM a read returns the value of the last completed write of the
 * key, or a miss, through failures, ejections, readmissions and flapping nodes. A write that did
 * not land (failed, timed out, refused) leaves the key unreadable on that node until a later write
 * lands; a value loaded while a write of the same key ran is not stored.
 *
 * <p>The annotations' interceptor and Spring's cache adapter reach the same cache through chash's
 * internal entry points (routing keys, stored forms, {@code sync} flags), which are not part of
 * this API. Implementations are thread-safe.
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
   * {@return this cache with keys and values of given types; see {@link #typed(Class)}} Unlike
   * Caffeine's {@code Cache<K, V>}, whose types exist only at compile time, the view checks each
   * key it is given: a key of another class (passed through a raw or unchecked call) fails with an
   * {@link IllegalArgumentException} naming the cache and both classes, instead of reaching the
   * nodes. A primitive {@code keyType} ({@code long.class}) means its wrapper ({@code Long}).
   *
   * @param <K> the key type
   * @param <V> the value type
   * @param keyType the keys' class; every key given to the view must be an instance of it
   * @param valueType the values' class
   */
  <K, V> TypedCache<K, V> typed(Class<K> keyType, Class<V> valueType);

  /** {@return time to live of the entries this handle writes; {@code null} for no expiry} */
  Duration ttl();

  /**
   * Removes every entry of this cache from every node, and nothing else (no other cache's keys, no
   * other application's). A node that is out, or whose clear fails, is cleared before it serves
   * again. Costs a scan of each node's keys (a Redis node: {@code SCAN MATCH} and {@code UNLINK}).
   */
  void clear();

  /** {@return a snapshot of this cache's counters ({@link CacheStats#ejectionCount()} is 0)} */
  CacheStats stats();
}
