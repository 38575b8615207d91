package io.github.chash.ring;

import java.util.Arrays;

/**
 * Virtual points on a 32-bit circle in sorted primitive arrays, shared by {@code ring} and {@code
 * ketama}: a key hashing to {@code h} belongs to the first point at or after {@code h} (unsigned),
 * wrapping to the first point.
 *
 * <p>Layout: {@code positions} (int, unsigned order) and {@code owners} (int node index), 8 bytes a
 * point, plus a bucket index of one int per 2 to 4 points over the top bits of the position, so a
 * lookup scans a handful of points: O(1) expected, at most 10 bytes a point in all.
 */
final class PointRing {
  private final int[] positions;
  private final int[] owners;
  private final int[] bucketStart;
  private final int bucketBits;

  private PointRing(int[] positions, int[] owners) {
    this.positions = positions;
    this.owners = owners;
    int n = positions.length;
    // 2 to 4 points per bucket on average.
    this.bucketBits = n < 4 ? 0 : 31 - Integer.numberOfLeadingZeros(n) - 1;
    int buckets = 1 << bucketBits;
    this.bucketStart = new int[buckets + 1];
    int p = 0;
    for (int b = 0; b < buckets; b++) {
      while (p < n && bucket(positions[p]) < b) {
        p++;
      }
      bucketStart[b] = p;
    }
    bucketStart[buckets] = n;
  }

  /**
   * Builds the ring from points packed by {@link #pack}. Several nodes on one position keep one
   * owner, chosen by node index (the id order): the lowest when {@code lowestIndexWins}, else the
   * highest. Never the insertion order.
   */
  static PointRing build(long[] packed, int count, boolean lowestIndexWins) {
    long[] sorted = Arrays.copyOf(packed, count);
    Arrays.sort(sorted);
    int[] positions = new int[count];
    int[] owners = new int[count];
    int n = 0;
    for (int i = 0; i < count; i++) {
      int position = (int) (sorted[i] >>> 32) ^ Integer.MIN_VALUE;
      int owner = (int) sorted[i];
      if (n > 0 && positions[n - 1] == position) {
        if (!lowestIndexWins) {
          owners[n - 1] = owner; // sorted by index within a position: the last is the highest
        }
        continue;
      }
      positions[n] = position;
      owners[n] = owner;
      n++;
    }
    return new PointRing(Arrays.copyOf(positions, n), Arrays.copyOf(owners, n));
  }

  /** Packs a point so that signed long order is unsigned position order, then node index. */
  static long pack(int position, int nodeIndex) {
    return ((long) (position ^ Integer.MIN_VALUE) << 32) | nodeIndex;
  }

  private int bucket(int position) {
    return (int) ((position & 0xffffffffL) >>> (32 - bucketBits));
  }

  /** The index of the first point at or after {@code hash}, wrapping to 0. */
  int pointAt(int hash) {
    int b = bucket(hash);
    int i = bucketStart[b];
    int end = bucketStart[b + 1];
    while (i < end && Integer.compareUnsigned(positions[i], hash) < 0) {
      i++;
    }
    return i == positions.length ? 0 : i;
  }

  int ownerAt(int hash) {
    return owners[pointAt(hash)];
  }

  /**
   * The first {@code n} distinct owners walking clockwise from {@code hash}. Nodes without any
   * point (every point lost a collision) follow in index order.
   */
  int[] distinctOwners(int hash, int n, int nodeCount) {
    int[] result = new int[n];
    boolean[] seen = new boolean[nodeCount];
    int found = 0;
    int start = pointAt(hash);
    for (int step = 0; step < positions.length && found < n; step++) {
      int owner = owners[(start + step) % positions.length];
      if (!seen[owner]) {
        seen[owner] = true;
        result[found++] = owner;
      }
    }
    for (int i = 0; found < n; i++) {
      if (!seen[i]) {
        result[found++] = i;
      }
    }
    return result;
  }

  /** Each node's exact share of the 2^32 positions: the arcs ending at its points. */
  double[] shares(int nodeCount) {
    long[] arcs = new long[nodeCount];
    int n = positions.length;
    for (int i = 0; i < n; i++) {
      long end = positions[i] & 0xffffffffL;
      long start = i == 0 ? (positions[n - 1] & 0xffffffffL) - (1L << 32) : positions[i - 1] & 0xffffffffL;
      arcs[owners[i]] += end - start;
    }
    double[] shares = new double[nodeCount];
    for (int i = 0; i < nodeCount; i++) {
      shares[i] = arcs[i] / (double) (1L << 32);
    }
    return shares;
  }

  /** The arcs as a {@link PositionMap}: a key at {@code h} belongs to the first point at or after it. */
  PositionMap positionMap(String keyPosition) {
    int n = positions.length;
    long last = positions[n - 1] & 0xffffffffL;
    boolean wraps = last < PositionMap.POSITIONS - 1;
    long[] ends = new long[wraps ? n + 1 : n];
    int[] segmentOwners = new int[ends.length];
    for (int i = 0; i < n; i++) {
      ends[i] = positions[i] & 0xffffffffL;
      segmentOwners[i] = owners[i];
    }
    if (wraps) {
      // past the last point a key wraps to the first
      ends[n] = PositionMap.POSITIONS - 1;
      segmentOwners[n] = owners[0];
    }
    return new PositionMap(keyPosition, ends, segmentOwners);
  }

  int maxPosition() {
    return positions[positions.length - 1];
  }

  int size() {
    return positions.length;
  }

  /** Bytes held by the arrays, for the benchmarks' bytes-per-point figure. */
  long bytes() {
    return 4L * positions.length + 4L * owners.length + 4L * bucketStart.length;
  }
}
