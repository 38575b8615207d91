package io.github.chash.cache;

import java.time.Duration;

/**
 * One shard of a sharded cache: an in-process Caffeine cache or a remote server.
 *
 * <p>Keys are routing keys ({@code cacheName + ":" + canonicalKey}); a remote node adds its own
 * prefix. Values are stored as given, including {@link NullValue#INSTANCE}, the marker of a cached
 * {@code null}, which a remote node's codec must round-trip. The cache layer, not the node, applies
 * the failure policy: a node reports a backend failure or timeout by throwing {@link
 * CacheNodeException} and never retries or buffers on its own.
 *
 * <p>Implementations are thread-safe.
 */
public interface CacheNode extends AutoCloseable {

  /** The node's id, as in {@code chash.yaml} and the ring. */
  String id();

  /**
   * Returns the value stored under the key, or {@code null} when there is none (a miss).
   *
   * <p>A stored value that cannot or must not be decoded (corrupt, of another version, of a class
   * outside the allow-list) is a miss: log it and return {@code null}, do not throw, since the node
   * itself is healthy and failures count towards its ejection.
   *
   * @param key the routing key
   * @param type the type to decode a remote value to; local nodes ignore it
   * @throws CacheNodeException on a backend failure or timeout
   */
  Object get(String key, ValueType type);

  /**
   * Stores the value under the key, replacing any previous one.
   *
   * @param key the routing key
   * @param value the value, never {@code null} ({@link NullValue#INSTANCE} stands for null)
   * @param ttl time to live, positive; {@code null} for no expiry
   * @throws CacheNodeException on a backend failure or timeout
   */
  void put(String key, Object value, Duration ttl);

  /**
   * Removes the key's entry, if any.
   *
   * @throws CacheNodeException on a backend failure or timeout
   */
  void evict(String key);

  /**
   * Removes every entry this library wrote to the node (a remote node: every key under its prefix),
   * and nothing else. Used before a node rejoins the live ring ({@code onRejoin: flush}).
   *
   * @throws CacheNodeException on a backend failure or timeout
   */
  void clear();

  /**
   * Checks that the node answers; the probe that readmits an ejected node.
   *
   * @throws CacheNodeException if it does not
   */
  void ping();

  /**
   * The approximate number of this library's entries on the node, or -1 when the node cannot tell
   * cheaply. Never throws.
   */
  long estimatedSize();

  /** Releases the node's resources (connections, memory); later calls may fail. Never throws. */
  @Override
  void close();
}
