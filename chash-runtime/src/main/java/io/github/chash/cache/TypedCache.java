package io.github.chash.cache;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A {@link ShardedCache} seen with its key and value types, for programmatic use: what Caffeine's
 * {@code Cache<K, V>} is to a local cache. Get one with {@link ShardedCache#typed(Class)} (keys of
 * any type with a canonical form: strings, numbers, UUIDs, enums, {@code java.time} values, records
 * and lists of those; see {@link CanonicalKeys}) or {@link ShardedCache#typed(Class, Class)}.
 *
 * <pre>{@code
 * TypedCache<Long, Product> products = manager.cache("products").typed(Long.class, Product.class);
 * Product p = products.get(42L, id -> repository.load(id));
 * Map<Long, Product> some = products.getAll(List.of(1L, 2L, 3L), repository::loadAll);
 * }</pre>
 *
 * <p>Keys: a view of {@link ShardedCache#typed(Class, Class)} refuses a key that is not of its key
 * type with an {@link IllegalArgumentException}, since erased generics let a raw call pass one; a
 * view of {@link ShardedCache#typed(Class)} takes any key with a canonical form.
 *
 * <p>Nulls are not cached: a loader that returns null stores nothing, and {@code put} refuses a
 * null value, as Caffeine does. Like every operation of the cache, these never throw because of a
 * node: a failing node is a miss and a failed write is skipped, both counted in {@link #stats()};
 * the no-stale-reads guarantee of {@link ShardedCache} holds. Thread-safe.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public interface TypedCache<K, V> {

  /** {@return the cache name, as in {@code chash.yaml}} */
  String name();

  /**
   * {@return the cached value, or {@code null} on a miss}
   *
   * @param key the key, not null
   * @throws NullPointerException if the key is null
   * @throws IllegalArgumentException if the key has no canonical form or is not of the view's key
   *     type
   */
  V getIfPresent(K key);

  /**
   * {@return the cached value, else computes it with {@code loader}, stores it (unless null) and
   * returns it} One caller per key and JVM runs the loader at a time; concurrent callers of the
   * same key wait for its result. A loader's exception reaches the caller unchanged and stores
   * nothing.
   *
   * @param key the key, not null
   * @param loader computes missing values
   * @throws NullPointerException if the key or loader is null
   */
  V get(K key, Function<? super K, ? extends V> loader);

  /**
   * {@return the cached values of the keys that are present, in one request per node, sent to all
   * nodes at once ({@code MGET} on a Redis node); absent keys are missing from the map}
   *
   * @param keys the keys, none null
   * @throws NullPointerException if a key is null
   */
  Map<K, V> getAll(Iterable<? extends K> keys);

  /**
   * {@return the values of all keys: the cached ones as {@link #getAll(Iterable)} does, the others
   * computed by one call of {@code loader} with every missing key, then stored in one request per
   * node} Keys the loader leaves out, or maps to null, are absent from the result and not stored.
   *
   * @param keys the keys, none null
   * @param loader computes missing values
   * @throws NullPointerException if a key or the loader is null
   */
  Map<K, V> getAll(
      Iterable<? extends K> keys,
      Function<? super Set<K>, ? extends Map<? extends K, ? extends V>> loader);

  /**
   * Stores the value under the key.
   *
   * @param key the key, not null
   * @param value the value, not null
   * @throws NullPointerException if the key or value is null
   */
  void put(K key, V value);

  /**
   * Stores every entry, in one request per node sent to all nodes at once.
   *
   * @param values the entries to store
   * @throws NullPointerException if a key or value is null
   */
  void putAll(Map<? extends K, ? extends V> values);

  /**
   * Removes the key's entry.
   *
   * @param key the key, not null
   */
  void evict(K key);

  /** Removes every entry of the cache; see {@link ShardedCache#clear()}. */
  void clear();

  /** {@return a snapshot of the cache's counters (shared with every view of the same cache)} */
  CacheStats stats();
}
