package io.github.chash.cache;

import java.util.concurrent.atomic.LongAdder;

/**
 * Lock-free counters behind a {@link CacheStats} snapshot; one per cache and one per node. Hits are
 * counted apart, per cache and node, in {@link HitCounts}.
 */
final class StatsCounter {
  private final LongAdder misses = new LongAdder();
  private final LongAdder loads = new LongAdder();
  private final LongAdder loadFailures = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder ejections = new LongAdder();

  void miss() {
    misses.increment();
  }

  void load() {
    loads.increment();
  }

  void loadFailure() {
    loadFailures.increment();
  }

  void error() {
    errors.increment();
  }

  void ejection() {
    ejections.increment();
  }

  /** The counts, with the hits counted elsewhere. */
  CacheStats snapshot(long hits) {
    return CacheStats.of(
        hits, misses.sum(), loads.sum(), loadFailures.sum(), errors.sum(), ejections.sum());
  }
}
