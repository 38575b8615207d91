package io.github.chash.cache;

/**
 * An immutable snapshot of a cache's or a node's counters, in the manner of Caffeine's {@code
 * CacheStats}.
 *
 * <ul>
 *   <li>{@code hitCount}: lookups that found a value (a cached null counts);
 *   <li>{@code missCount}: lookups that found none, including those whose node failed;
 *   <li>{@code loadCount}: loader runs that returned; {@code loadFailureCount}: loader runs that
 *       threw;
 *   <li>{@code errorCount}: node operations (get, put, evict) that failed or timed out;
 *   <li>{@code ejectionCount}: times a node was taken out of the live ring; always 0 for a cache.
 * </ul>
 *
 * <p>Thread-safe (immutable).
 */
public final class CacheStats {
  private static final CacheStats EMPTY = new CacheStats(0, 0, 0, 0, 0, 0);

  private final long hitCount;
  private final long missCount;
  private final long loadCount;
  private final long loadFailureCount;
  private final long errorCount;
  private final long ejectionCount;

  private CacheStats(
      long hitCount,
      long missCount,
      long loadCount,
      long loadFailureCount,
      long errorCount,
      long ejectionCount) {
    this.hitCount = hitCount;
    this.missCount = missCount;
    this.loadCount = loadCount;
    this.loadFailureCount = loadFailureCount;
    this.errorCount = errorCount;
    this.ejectionCount = ejectionCount;
  }

  /**
   * Returns a snapshot of the given counts.
   *
   * @throws IllegalArgumentException if a count is negative
   */
  public static CacheStats of(
      long hitCount,
      long missCount,
      long loadCount,
      long loadFailureCount,
      long errorCount,
      long ejectionCount) {
    requireNonNegative("hitCount", hitCount);
    requireNonNegative("missCount", missCount);
    requireNonNegative("loadCount", loadCount);
    requireNonNegative("loadFailureCount", loadFailureCount);
    requireNonNegative("errorCount", errorCount);
    requireNonNegative("ejectionCount", ejectionCount);
    return new CacheStats(
        hitCount, missCount, loadCount, loadFailureCount, errorCount, ejectionCount);
  }

  /** All counts zero. */
  public static CacheStats empty() {
    return EMPTY;
  }

  /** Lookups that found a value. */
  public long hitCount() {
    return hitCount;
  }

  /** Lookups that found none (including failed ones). */
  public long missCount() {
    return missCount;
  }

  /** {@code hitCount + missCount}. */
  public long requestCount() {
    return hitCount + missCount;
  }

  /** {@code hitCount / requestCount}, or 1.0 when there were no requests (as Caffeine). */
  public double hitRate() {
    long requests = requestCount();
    return requests == 0 ? 1.0 : (double) hitCount / requests;
  }

  /** Loader runs that returned a value (null included). */
  public long loadCount() {
    return loadCount;
  }

  /** Loader runs that threw. */
  public long loadFailureCount() {
    return loadFailureCount;
  }

  /** Node operations that failed or timed out. */
  public long errorCount() {
    return errorCount;
  }

  /** Times a node was ejected from the live ring (0 for a cache). */
  public long ejectionCount() {
    return ejectionCount;
  }

  /** Returns the component-wise sum of this and {@code other}. */
  public CacheStats plus(CacheStats other) {
    return new CacheStats(
        hitCount + other.hitCount,
        missCount + other.missCount,
        loadCount + other.loadCount,
        loadFailureCount + other.loadFailureCount,
        errorCount + other.errorCount,
        ejectionCount + other.ejectionCount);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CacheStats s
        && hitCount == s.hitCount
        && missCount == s.missCount
        && loadCount == s.loadCount
        && loadFailureCount == s.loadFailureCount
        && errorCount == s.errorCount
        && ejectionCount == s.ejectionCount;
  }

  @Override
  public int hashCode() {
    long h = hitCount;
    h = 31 * h + missCount;
    h = 31 * h + loadCount;
    h = 31 * h + loadFailureCount;
    h = 31 * h + errorCount;
    h = 31 * h + ejectionCount;
    return Long.hashCode(h);
  }

  @Override
  public String toString() {
    return "CacheStats{hitCount="
        + hitCount
        + ", missCount="
        + missCount
        + ", loadCount="
        + loadCount
        + ", loadFailureCount="
        + loadFailureCount
        + ", errorCount="
        + errorCount
        + ", ejectionCount="
        + ejectionCount
        + "}";
  }

  private static void requireNonNegative(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " must not be negative; was " + value);
    }
  }
}
