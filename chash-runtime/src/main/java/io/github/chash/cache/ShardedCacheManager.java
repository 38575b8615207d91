package io.github.chash.cache;

import io.github.chash.ring.Ring;
import java.util.Map;
import java.util.Set;

/**
 * The named caches of one configuration, their nodes, and the live ring that routes keys to the
 * nodes that currently answer. Build one with {@link ShardedCaches}; share it application-wide.
 *
 * <p>Nodes that fail {@code failureLimit} times in a row leave the live ring for {@code
 * retryAfter}; a background probe ({@link CacheNode#ping()}) readmits them, first clearing their
 * entries when {@code onRejoin: flush}. After a readmission, the copies written during the outage
 * to nodes that no longer own their keys are evicted too (up to 100,000 keys remembered), so a
 * later outage cannot resurrect them. Thread-safe.
 */
public interface ShardedCacheManager extends AutoCloseable {

  /**
   * Returns the named cache; cheap, but callers should keep the handle.
   *
   * @throws IllegalArgumentException if there is no such cache, naming it and the configured ones
   * @throws IllegalStateException if the manager was closed
   */
  ShardedCache cache(String name);

  /** The configured cache names, in configuration order. */
  Set<String> cacheNames();

  /** The ring of all configured nodes. */
  Ring ring();

  /** The ring of the nodes currently serving (the configured ring minus ejected nodes). */
  Ring liveRing();

  /**
   * Returns the node with the given id.
   *
   * @throws IllegalArgumentException if there is none
   */
  CacheNode node(String id);

  /** A snapshot of each node's counters, by node id in ring order. */
  Map<String, CacheStats> nodeStats();

  /** A snapshot of each cache's counters, by cache name in configuration order. */
  Map<String, CacheStats> cacheStats();

  /**
   * Stops the probes and closes every node; later calls do nothing. Afterwards {@link #cache} and
   * every operation of the caches it returned throw {@link IllegalStateException}. Never throws.
   */
  @Override
  void close();
}
