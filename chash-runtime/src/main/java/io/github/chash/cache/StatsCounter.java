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
  private final LongAdder puts = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder refusals = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder ejections = new LongAdder();
  private final LongAdder migrationHits = new LongAdder();
  private final LongAdder migrationCopies = new LongAdder();
  private final LongAdder leftoverDeletions = new LongAdder();

  void miss() {
    misses.increment();
  }

  void load() {
    loads.increment();
  }

  void loadFailure() {
    loadFailures.increment();
  }

  void put() {
    puts.increment();
  }

  void eviction() {
    evictions.increment();
  }

  void refused() {
    refusals.increment();
  }

  void error() {
    errors.increment();
  }

  void ejection() {
    ejections.increment();
  }

  void migrationHit() {
    migrationHits.increment();
  }

  void migrationCopy() {
    migrationCopies.increment();
  }

  void leftoverDeletions(long n) {
    leftoverDeletions.add(n);
  }

  /** The counts of a cache, with the hits (of which {@code nearHits} in its near cache). */
  CacheStats snapshot(long hits, long nearHits) {
    return snapshot(hits, 0, nearHits);
  }

  /** The counts of a node, with its hits and replica reads counted elsewhere. */
  CacheStats nodeSnapshot(long hits, long replicaReads) {
    return snapshot(hits, replicaReads, 0);
  }

  private CacheStats snapshot(long hits, long replicaReads, long nearHits) {
    return CacheStats.builder()
        .replicaReadCount(replicaReads)
        .nearHitCount(nearHits)
        .hitCount(hits)
        .missCount(misses.sum())
        .loadCount(loads.sum())
        .loadFailureCount(loadFailures.sum())
        .putCount(puts.sum())
        .evictionCount(evictions.sum())
        .refusedCount(refusals.sum())
        .errorCount(errors.sum())
        .ejectionCount(ejections.sum())
        .migrationHitCount(migrationHits.sum())
        .migrationCopyCount(migrationCopies.sum())
        .leftoverDeletionCount(leftoverDeletions.sum())
        .build();
  }
}
