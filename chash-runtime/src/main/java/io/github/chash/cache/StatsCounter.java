package io.github.chash.cache;

import java.util.concurrent.atomic.LongAdder;

/**
 * Lock-free counters behind a {@link CacheStats} snapshot; one per cache and one per node. Hits are
 * counted apart, per cache and node, in {@link HitCounts}. A cache's counter also carries what its
 * {@link CacheRecorder} wants timed ({@link #timings}), so the classes that count reach it.
 */
final class StatsCounter {
  /** What the cache's recorder times; {@link CacheRecorder.Operations#NONE} for a node. */
  final CacheRecorder.Operations timings;

  /** Whether {@link #timings} wants anything: read once, so an untimed cache reads no clock. */
  final boolean timed;

  /** A node's counter, or a cache's whose recorder times nothing. */
  StatsCounter() {
    this(CacheRecorder.Operations.NONE);
  }

  /** A cache's counter, whose timings go to {@code timings}. */
  StatsCounter(CacheRecorder.Operations timings) {
    this.timings = timings;
    this.timed = timings.timed();
  }

  /** {@return the clock's time when the cache is timed, else 0 (and no clock is read)} */
  long startTime() {
    return timed ? System.nanoTime() : 0;
  }

  /** The start time of a near-cache lookup that is not one of the timed ones. */
  static final long UNTIMED = Long.MIN_VALUE;

  /**
   * A near-cache hit whose lookup began at {@code startTime}, or {@link #UNTIMED}: only a sample is
   * timed ({@link NearCache#sampled}), since two clock reads and a histogram update on each hit
   * would cost several times the hit; the near cache counts them all.
   */
  void nearHit(long startTime) {
    if (startTime != UNTIMED) {
      timings.nearHit(System.nanoTime() - startTime);
    }
  }

  /** A loader run that began at {@link #startTime} returned (or threw). */
  void loadTimed(long startTime, boolean success) {
    if (timed) {
      timings.loaded(System.nanoTime() - startTime, success);
    }
  }

  private final LongAdder fences = new LongAdder();
  private final LongAdder leasesTaken = new LongAdder();
  private final LongAdder leasesLost = new LongAdder();
  private final LongAdder tombstones = new LongAdder();
  private final LongAdder safetyMisses = new LongAdder();
  private final LongAdder invalidations = new LongAdder();
  private final LongAdder invalidationsLost = new LongAdder();
  private final LongAdder readmissions = new LongAdder();
  private final LongAdder leaseWaitsServed = new LongAdder();
  private final LongAdder leaseWaitsExpired = new LongAdder();

  /** A sync load served another JVM's fill after waiting for it: a load saved. */
  void leaseWaitServed() {
    leaseWaitsServed.increment();
  }

  /** A sync load waited for another JVM's fill until the wait's limit, and loads for itself. */
  void leaseWaitExpired() {
    leaseWaitsExpired.increment();
  }

  void fence() {
    fences.increment();
  }

  void leaseTaken() {
    leasesTaken.increment();
  }

  void leaseLost() {
    leasesLost.increment();
  }

  void tombstone() {
    tombstones.increment();
  }

  void safetyMiss() {
    safetyMisses.increment();
  }

  void invalidation() {
    invalidations.increment();
  }

  void invalidationsLost() {
    invalidationsLost.increment();
  }

  void readmission() {
    readmissions.increment();
  }

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
        .fenceCount(fences.sum())
        .leaseCount(leasesTaken.sum())
        .leaseLostCount(leasesLost.sum())
        .tombstoneCount(tombstones.sum())
        .safetyMissCount(safetyMisses.sum())
        .invalidationCount(invalidations.sum())
        .invalidationLossCount(invalidationsLost.sum())
        .readmissionCount(readmissions.sum())
        .leaseWaitServedCount(leaseWaitsServed.sum())
        .leaseWaitExpiredCount(leaseWaitsExpired.sum())
        .build();
  }
}
