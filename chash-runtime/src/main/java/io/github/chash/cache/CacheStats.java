package io.github.chash.cache;

import java.util.Arrays;

/**
 * An immutable snapshot of a cache's or a node's counters, in the manner of Caffeine's {@code
 * CacheStats}.
 *
 * <ul>
 *   <li>{@code hitCount}: lookups that found a value (a cached null counts);
 *   <li>{@code missCount}: lookups that found none, including those whose node failed or refused
 *       the value;
 *   <li>{@code loadCount}: loader runs that returned; {@code loadFailureCount}: loader runs that
 *       threw;
 *   <li>{@code putCount}: entries written (explicit puts and fills after a load) that landed;
 *   <li>{@code evictionCount}: explicit evictions ({@code evict}, and each node a {@code clear}
 *       emptied of the cache), not expiries;
 *   <li>{@code refusedCount}: values a node refused to store or to return: larger than the size
 *       limit, not encodable, or not decodable or not allowed when read; not node failures;
 *   <li>{@code errorCount}: node operations (get, put, evict) that failed or timed out;
 *   <li>{@code ejectionCount}: times a node was taken out of the live ring; always 0 for a cache;
 *   <li>{@code migrationHitCount}: misses on a key's new owner that its previous owner answered,
 *       after a reconfiguration (counted on that previous owner, and as hits of the cache); {@code
 *       migrationCopyCount}: such values copied to the new owner (counted on it);
 *   <li>{@code leftoverDeletionCount}: copies the sweep after a migration window deleted from nodes
 *       that no longer own their keys;
 *   <li>{@code replicaReadCount}: keys a node read from a replica of its shard ({@code readFrom:
 *       replicaPreferred}) rather than its primary; always 0 for a cache;
 *   <li>{@code nearHitCount}: the hits a cache's near cache answered in this JVM, without a node
 *       call (part of {@code hitCount}, and of no node's); always 0 for a node;
 *   <li>{@code fenceCount}: fences written: tombstones put on a key's previous owners before a
 *       write of this ring reaches its target, so no read across rings finds the older value there;
 *   <li>{@code leaseCount}: leases taken on a miss before a load, so that a write of the key in any
 *       JVM while it loads makes the fill fail;
 *   <li>{@code leaseLostCount}: loads whose fill found their lease gone (a write, an evict or
 *       another JVM's fill came first): the value was not stored;
 *   <li>{@code tombstoneCount}: evictions that left a tombstone for the migration window instead of
 *       nothing, so a JVM on a newer ring does not copy an older value back;
 *   <li>{@code safetyMissCount}: reads turned into misses without asking a node, to stay correct:
 *       the key's copy there is of unknown state or the routing cannot vouch for it;
 *   <li>{@code invalidationCount}: changes of keys the node reported to the near caches (Redis
 *       client tracking); always 0 for a cache;
 *   <li>{@code invalidationLossCount}: times the node's invalidation channel was lost (a
 *       reconnect), each dropping every near entry read from it; always 0 for a cache;
 *   <li>{@code readmissionCount}: times the node rejoined the live ring after an ejection; always 0
 *       for a cache;
 *   <li>{@code leaseWaitServedCount}: sync loads that found another JVM's load holding the key's
 *       lease, waited, and served that load's fill instead of loading: loads the wait saved;
 *   <li>{@code leaseWaitExpiredCount}: sync loads that waited for another JVM's load of the key
 *       until the wait's limit, then loaded for themselves;
 * </ul>
 *
 * <p>Thread-safe (immutable).
 */
public final class CacheStats {
  private static final int HIT = 0;
  private static final int MISS = 1;
  private static final int LOAD = 2;
  private static final int LOAD_FAILURE = 3;
  private static final int PUT = 4;
  private static final int EVICTION = 5;
  private static final int REFUSED = 6;
  private static final int ERROR = 7;
  private static final int EJECTION = 8;
  private static final int MIGRATION_HIT = 9;
  private static final int MIGRATION_COPY = 10;
  private static final int LEFTOVER_DELETION = 11;
  private static final int REPLICA_READ = 12;
  private static final int NEAR_HIT = 13;
  private static final int FENCE = 14;
  private static final int LEASE = 15;
  private static final int LEASE_LOST = 16;
  private static final int TOMBSTONE = 17;
  private static final int SAFETY_MISS = 18;
  private static final int INVALIDATION = 19;
  private static final int INVALIDATION_LOSS = 20;
  private static final int READMISSION = 21;
  private static final int LEASE_WAIT_SERVED = 22;
  private static final int LEASE_WAIT_EXPIRED = 23;
  private static final String[] NAMES = {
    "hitCount",
    "missCount",
    "loadCount",
    "loadFailureCount",
    "putCount",
    "evictionCount",
    "refusedCount",
    "errorCount",
    "ejectionCount",
    "migrationHitCount",
    "migrationCopyCount",
    "leftoverDeletionCount",
    "replicaReadCount",
    "nearHitCount",
    "fenceCount",
    "leaseCount",
    "leaseLostCount",
    "tombstoneCount",
    "safetyMissCount",
    "invalidationCount",
    "invalidationLossCount",
    "readmissionCount",
    "leaseWaitServedCount",
    "leaseWaitExpiredCount"
  };
  private static final CacheStats EMPTY = new CacheStats(new long[NAMES.length]);

  private final long[] counts;

  private CacheStats(long[] counts) {
    this.counts = counts;
  }

  /** {@return a snapshot with all counts zero} */
  public static CacheStats empty() {
    return EMPTY;
  }

  /**
   * {@return a builder with every count zero, for snapshots built outside this library (tests,
   * adapters)}
   */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return lookups that found a value} */
  public long hitCount() {
    return counts[HIT];
  }

  /** {@return lookups that found none (including failed and refused ones)} */
  public long missCount() {
    return counts[MISS];
  }

  /** {@return {@code hitCount + missCount}} */
  public long requestCount() {
    return counts[HIT] + counts[MISS];
  }

  /** {@return {@code hitCount / requestCount}, or 1.0 when there were no requests (as Caffeine)} */
  public double hitRate() {
    long requests = requestCount();
    return requests == 0 ? 1.0 : (double) counts[HIT] / requests;
  }

  /** {@return loader runs that returned a value (null included)} */
  public long loadCount() {
    return counts[LOAD];
  }

  /** {@return loader runs that threw} */
  public long loadFailureCount() {
    return counts[LOAD_FAILURE];
  }

  /** {@return entries written that landed: explicit puts and fills after a load} */
  public long putCount() {
    return counts[PUT];
  }

  /** {@return explicit evictions (not expiries or a server's own evictions)} */
  public long evictionCount() {
    return counts[EVICTION];
  }

  /**
   * {@return values a node refused to store or return (too large, not encodable, not decodable)}
   */
  public long refusedCount() {
    return counts[REFUSED];
  }

  /** {@return node operations that failed or timed out} */
  public long errorCount() {
    return counts[ERROR];
  }

  /** {@return times a node was ejected from the live ring (0 for a cache)} */
  public long ejectionCount() {
    return counts[EJECTION];
  }

  /**
   * {@return misses on a key's new owner answered by its previous owner after a reconfiguration}
   */
  public long migrationHitCount() {
    return counts[MIGRATION_HIT];
  }

  /** {@return values copied from a key's previous owner to its new one after a reconfiguration} */
  public long migrationCopyCount() {
    return counts[MIGRATION_COPY];
  }

  /**
   * Copies deleted by the leftover sweep from nodes that no longer own their keys.
   *
   * @return copies deleted by the leftover sweep from nodes that no longer own their keys
   */
  public long leftoverDeletionCount() {
    return counts[LEFTOVER_DELETION];
  }

  /**
   * Keys a node read from a replica of its shard rather than its primary; 0 for a cache.
   *
   * @return keys a node read from a replica of its shard
   */
  public long replicaReadCount() {
    return counts[REPLICA_READ];
  }

  /**
   * Hits the cache's near cache answered in this JVM without a node call; part of {@link
   * #hitCount()}. 0 for a node, and for a cache without a near cache.
   *
   * @return hits answered by the near cache
   */
  public long nearHitCount() {
    return counts[NEAR_HIT];
  }

  /**
   * The tombstones written on previous owners before a write (fences): fences written: tombstones
   * put on a key's previous owners before a write of this ring reaches its target, so no read
   * across rings finds the older value there.
   *
   * @return the tombstones written on previous owners before a write (fences)
   */
  public long fenceCount() {
    return counts[FENCE];
  }

  /**
   * The leases taken before a load: leases taken on a miss before a load, so that a write of the
   * key in any JVM while it loads makes the fill fail.
   *
   * @return the leases taken before a load
   */
  public long leaseCount() {
    return counts[LEASE];
  }

  /**
   * The loads whose lease was gone when they filled: loads whose fill found their lease gone (a
   * write, an evict or another JVM's fill came first): the value was not stored.
   *
   * @return the loads whose lease was gone when they filled
   */
  public long leaseLostCount() {
    return counts[LEASE_LOST];
  }

  /**
   * The evictions written as tombstones: evictions that left a tombstone for the migration window
   * instead of nothing, so a JVM on a newer ring does not copy an older value back.
   *
   * @return the evictions written as tombstones
   */
  public long tombstoneCount() {
    return counts[TOMBSTONE];
  }

  /**
   * The reads made misses for safety: reads turned into misses without asking a node, to stay
   * correct: the key's copy there is of unknown state or the routing cannot vouch for it.
   *
   * @return the reads made misses for safety
   */
  public long safetyMissCount() {
    return counts[SAFETY_MISS];
  }

  /**
   * The invalidations the node reported: changes of keys the node reported to the near caches
   * (Redis client tracking); always 0 for a cache.
   *
   * @return the invalidations the node reported
   */
  public long invalidationCount() {
    return counts[INVALIDATION];
  }

  /**
   * The invalidation channels lost: times the node's invalidation channel was lost (a reconnect),
   * each dropping every near entry read from it; always 0 for a cache.
   *
   * @return the invalidation channels lost
   */
  public long invalidationLossCount() {
    return counts[INVALIDATION_LOSS];
  }

  /**
   * The readmissions of the node: times the node rejoined the live ring after an ejection; always 0
   * for a cache.
   *
   * @return the readmissions of the node
   */
  public long readmissionCount() {
    return counts[READMISSION];
  }

  /**
   * The loads a lease wait saved: sync loads that found another JVM's load holding the key's lease,
   * waited, and served that load's fill instead of loading.
   *
   * @return the loads a lease wait saved
   */
  public long leaseWaitServedCount() {
    return counts[LEASE_WAIT_SERVED];
  }

  /**
   * The lease waits that ran out: sync loads that waited for another JVM's load of the key until
   * the wait's limit, then loaded for themselves.
   *
   * @return the lease waits that ran out
   */
  public long leaseWaitExpiredCount() {
    return counts[LEASE_WAIT_EXPIRED];
  }

  /**
   * {@return the component-wise sum of this and {@code other}}
   *
   * @param other the snapshot to add
   */
  public CacheStats plus(CacheStats other) {
    long[] sum = new long[NAMES.length];
    for (int i = 0; i < sum.length; i++) {
      sum[i] = counts[i] + other.counts[i];
    }
    return new CacheStats(sum);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CacheStats s && Arrays.equals(counts, s.counts);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(counts);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("CacheStats{");
    for (int i = 0; i < NAMES.length; i++) {
      out.append(i == 0 ? "" : ", ").append(NAMES[i]).append('=').append(counts[i]);
    }
    return out.append('}').toString();
  }

  /**
   * Builds a {@link CacheStats}; counts not set are zero. Not thread-safe.
   *
   * <p>Each setter throws {@link IllegalArgumentException} for a negative count.
   */
  public static final class Builder {
    private final long[] counts = new long[NAMES.length];

    private Builder() {}

    /**
     * Sets {@link CacheStats#hitCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder hitCount(long n) {
      return set(HIT, n);
    }

    /**
     * Sets {@link CacheStats#missCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder missCount(long n) {
      return set(MISS, n);
    }

    /**
     * Sets {@link CacheStats#loadCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder loadCount(long n) {
      return set(LOAD, n);
    }

    /**
     * Sets {@link CacheStats#loadFailureCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder loadFailureCount(long n) {
      return set(LOAD_FAILURE, n);
    }

    /**
     * Sets {@link CacheStats#putCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder putCount(long n) {
      return set(PUT, n);
    }

    /**
     * Sets {@link CacheStats#evictionCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder evictionCount(long n) {
      return set(EVICTION, n);
    }

    /**
     * Sets {@link CacheStats#refusedCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder refusedCount(long n) {
      return set(REFUSED, n);
    }

    /**
     * Sets {@link CacheStats#errorCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder errorCount(long n) {
      return set(ERROR, n);
    }

    /**
     * Sets {@link CacheStats#ejectionCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder ejectionCount(long n) {
      return set(EJECTION, n);
    }

    /**
     * Sets {@link CacheStats#migrationHitCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder migrationHitCount(long n) {
      return set(MIGRATION_HIT, n);
    }

    /**
     * Sets {@link CacheStats#migrationCopyCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder migrationCopyCount(long n) {
      return set(MIGRATION_COPY, n);
    }

    /**
     * Sets {@link CacheStats#leftoverDeletionCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder leftoverDeletionCount(long n) {
      return set(LEFTOVER_DELETION, n);
    }

    /**
     * Sets {@link CacheStats#replicaReadCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder replicaReadCount(long n) {
      return set(REPLICA_READ, n);
    }

    /**
     * Sets {@link CacheStats#nearHitCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder nearHitCount(long n) {
      return set(NEAR_HIT, n);
    }

    /**
     * Sets {@link CacheStats#fenceCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder fenceCount(long n) {
      return set(FENCE, n);
    }

    /**
     * Sets {@link CacheStats#leaseCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder leaseCount(long n) {
      return set(LEASE, n);
    }

    /**
     * Sets {@link CacheStats#leaseLostCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder leaseLostCount(long n) {
      return set(LEASE_LOST, n);
    }

    /**
     * Sets {@link CacheStats#tombstoneCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder tombstoneCount(long n) {
      return set(TOMBSTONE, n);
    }

    /**
     * Sets {@link CacheStats#safetyMissCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder safetyMissCount(long n) {
      return set(SAFETY_MISS, n);
    }

    /**
     * Sets {@link CacheStats#invalidationCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder invalidationCount(long n) {
      return set(INVALIDATION, n);
    }

    /**
     * Sets {@link CacheStats#invalidationLossCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder invalidationLossCount(long n) {
      return set(INVALIDATION_LOSS, n);
    }

    /**
     * Sets {@link CacheStats#readmissionCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder readmissionCount(long n) {
      return set(READMISSION, n);
    }

    /**
     * Sets {@link CacheStats#leaseWaitServedCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder leaseWaitServedCount(long n) {
      return set(LEASE_WAIT_SERVED, n);
    }

    /**
     * Sets {@link CacheStats#leaseWaitExpiredCount()}.
     *
     * @param n the count, not negative
     * @return this builder
     */
    public Builder leaseWaitExpiredCount(long n) {
      return set(LEASE_WAIT_EXPIRED, n);
    }

    /** {@return the snapshot of the counts set so far} */
    public CacheStats build() {
      return new CacheStats(counts.clone());
    }

    private Builder set(int index, long n) {
      if (n < 0) {
        throw new IllegalArgumentException(NAMES[index] + " must not be negative, was " + n);
      }
      counts[index] = n;
      return this;
    }
  }
}
