package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;

/**
 * Creates the built-in {@link CacheNode}s. The implementations are package-private. Thread-safe.
 */
public final class CacheNodes {
  private CacheNodes() {}

  /**
   * {@return a local node: one Caffeine cache holding at most {@code maximumSize} entries (least
   * valuable evicted first, Caffeine's W-TinyLFU), each expiring after the TTL it was written with}
   * Values are kept by reference, never copied. Get, put and evict are O(1) amortized; thread-safe.
   *
   * @param id the node's id
   * @param maximumSize the most entries the node holds, positive
   * @throws IllegalArgumentException if {@code id} is blank or {@code maximumSize} is not positive
   */
  public static CacheNode local(String id, long maximumSize) {
    return local(id, maximumSize, Ticker.systemTicker());
  }

  /** As {@link #local(String, long)}, with the clock that times expiry (tests use a fake one). */
  static CacheNode local(String id, long maximumSize, Ticker ticker) {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("node id must not be null or blank, was " + id);
    }
    return new LocalCacheNode(id, maximumSize, ticker);
  }
}
