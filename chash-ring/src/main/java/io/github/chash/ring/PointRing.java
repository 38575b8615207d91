package io.github.chash.ring;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.IntPredicate;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

/**
 * Virtual points on a 32-bit circle in one sorted primitive array, shared by {@code ring} and
 * {@code ketama}: a key hashing to {@code h} belongs to the first point at or after {@code h}
 * (unsigned), wrapping to the first point.
 *
 * <p>Layout, chosen so that a lookup touches as few cache lines as possible:
 *
 * <ul>
 *   <li>{@code points}: one {@code long} a point, {@code (position ^ 2^31) << 32 | owner}, so that
 *       signed order is unsigned position order and a point's position and owner come in one load;
 *       a last sentinel entry at position {@code 2^32 - 1} carries the first point's owner, so the
 *       scan for the first point at or after {@code h} stops without a bounds check and wraps by
 *       itself.
 *   <li>{@code buckets}: the circle cut into equal buckets, one {@code int} each, the index of the
 *       bucket's first point: one bucket per 2 points up to {@value #CACHED_BUCKETS} buckets, one
 *       per {@value #POINTS_PER_BUCKET} points beyond. The index stays small enough to stay in the
 *       CPU cache (128 KB for a million points) while a large ring's points do not, so a lookup's
 *       one likely cache miss is the run of points it scans.
 * </ul>
 *
 * <p>A lookup reads its bucket and scans forward from the bucket's first point, at most about
 * {@value #POINTS_PER_BUCKET} / 2 points on average (two to three consecutive cache lines): O(1)
 * expected. Memory: 8 bytes a point plus at most 2 for the buckets.
 */
final class PointRing {
  /**
   * Points per bucket in large rings. At 1000 nodes x 1000 points 32 beat 1 (a bucket index as
   * large as the points, each lookup missing the cache twice; slower even with the owner stored in
   * the buckets that hold no point), 4, 8, 16 and 64 to 256; interpolating the start inside the
   * bucket instead of scanning from its first point was no faster. RingLookupBenchmark measures it.
   */
  static final int POINTS_PER_BUCKET = 32;

  /**
   * Up to this many buckets (128 KB of index, cache-resident) small rings get 2 points a bucket, so
   * their scans stay short (at 10 nodes x 1000 points, faster than 32 points a bucket); twice as
   * many buckets made no difference at 1000 nodes. RingLookupBenchmark measures both.
   */
  static final int CACHED_BUCKETS = 1 << 15;

  /** Most slots of the {@link #slotOwners} table: 64 KB, small enough to stay in the CPU cache. */
  static final int MAX_SLOTS = 1 << 16;

  /** Slots per point of the {@link #slotOwners} table: about 78% of slots then hold no point. */
  static final int SLOTS_PER_POINT = 4;

  /** In {@link #slotOwners}: some point lies inside the slot, so its positions have two owners. */
  private static final byte MIXED = -1;

  private final long[] points;
  private final int[] buckets;
  private final int size;

  /**
   * For small rings (at most {@value #MAX_SLOTS} / {@value #SLOTS_PER_POINT} points, owners below
   * 127), the circle cut into a power-of-two number of slots: the owner of every position of the
   * slot when no point lies inside it, else {@link #MIXED}. Most lookups then read one byte of a
   * table that stays in the CPU cache instead of the bucket index and the points; measured on the
   * cache-hit path, where the ring shares the cache with the shards' tables. Null for larger rings.
   */
  private final byte[] slotOwners;

  /** How far a position shifts right to give its slot. */
  private final int slotShift;

  /** Takes {@code sortedUnique} over: its first {@code size} points, and room for the sentinel. */
  private PointRing(long[] sortedUnique, int size) {
    this.size = size;
    long[] points = sortedUnique;
    // the sentinel: the largest position, owned by the first point's owner (the wrap-around arc)
    points[size] = (long) (-1 ^ Integer.MIN_VALUE) << 32 | owner(points[0]);
    this.points = points;
    int bucketCount =
        Math.max(1, Math.max(size / POINTS_PER_BUCKET, Math.min(size / 2, CACHED_BUCKETS)));
    int[] buckets = new int[bucketCount];
    int p = 0;
    for (int b = 0; b < bucketCount; b++) {
      while (p < size && bucket(position(points[p]), bucketCount) < b) {
        p++;
      }
      buckets[b] = p;
    }
    this.buckets = buckets;
    int slots = slotCount(points, size);
    this.slotShift = slots == 0 ? 0 : 32 - Integer.numberOfTrailingZeros(slots);
    this.slotOwners = slots == 0 ? null : slotOwners(slots);
  }

  /** The number of slots of the table (a power of two), or 0 when the ring gets none. */
  private static int slotCount(long[] points, int size) {
    if ((long) size * SLOTS_PER_POINT > MAX_SLOTS) {
      return 0;
    }
    for (int i = 0; i < size; i++) {
      if (owner(points[i]) > Byte.MAX_VALUE - 1) {
        return 0;
      }
    }
    return Math.max(2, Integer.highestOneBit(size * SLOTS_PER_POINT - 1) << 1);
  }

  private byte[] slotOwners(int slots) {
    byte[] table = new byte[slots];
    long slotWidth = 1L << slotShift;
    for (int slot = 0; slot < slots; slot++) {
      int first = (int) (slot * slotWidth);
      int last = (int) (slot * slotWidth + slotWidth - 1);
      long point = points[search(first)];
      // every position of the slot has this owner when the first point at or after the slot's
      // start lies at or after its end (the sentinel, at the largest position, always does)
      table[slot] =
          Integer.compareUnsigned(position(point), last) >= 0 ? (byte) owner(point) : MIXED;
    }
    return table;
  }

  /**
   * Builds the ring from the first {@code count} points of {@code packed}, packed by {@link #pack}.
   * Several nodes on one position keep one owner, chosen by node index (the id order): the lowest
   * when {@code lowestIndexWins}, else the highest. Never the insertion order. {@code packed} is
   * left as it was.
   */
  static PointRing build(long[] packed, int count, boolean lowestIndexWins) {
    return buildInPlace(Arrays.copyOf(packed, count + 1), count, lowestIndexWins);
  }

  /**
   * As {@link #build}, taking {@code points} over: sorts and de-duplicates its first {@code count}
   * points where they are and keeps the array, which must have room for one more point (the
   * sentinel). So a ring of P points costs 8 P bytes while it is built, not a multiple of that.
   */
  private static PointRing buildInPlace(long[] points, int count, boolean lowestIndexWins) {
    sortByPosition(points, count);
    int n = 0;
    for (int i = 0; i < count; i++) {
      if (n > 0 && position(points[n - 1]) == position(points[i])) {
        // the sort orders a position's points by insertion, so pick the winner explicitly
        int kept = owner(points[n - 1]);
        int other = owner(points[i]);
        if (lowestIndexWins ? other < kept : other > kept) {
          points[n - 1] = points[i];
        }
        continue;
      }
      points[n++] = points[i];
    }
    return new PointRing(points, n);
  }

  /** Below this many points {@code Arrays.sort} beats the radix sort. */
  private static final int RADIX_SORT_MIN = 1 << 12;

  /**
   * Orders the first {@code count} points by position (unsigned), in place; points on one position
   * in any order. Large inputs are radix-sorted: first in place by the position's top byte (an
   * American flag sort: one counting pass, then each point swapped straight into its bucket), then
   * each of the 256 buckets by the lower three bytes (LSD, with a scratch array of the bucket's
   * size, on all cores). O(points), and the extra memory is one bucket per core instead of a second
   * copy of all points (160 MB at 20 million points).
   */
  static void sortByPosition(long[] points, int count) {
    if (count < RADIX_SORT_MIN) {
      Arrays.sort(points, 0, count);
      return;
    }
    int[] start = new int[257];
    for (int i = 0; i < count; i++) {
      start[digit(points[i], 3) + 1]++;
    }
    for (int d = 0; d < 256; d++) {
      start[d + 1] += start[d];
    }
    int[] next = Arrays.copyOf(start, 256);
    for (int d = 0; d < 256; d++) {
      int end = start[d + 1];
      while (next[d] < end) {
        long point = points[next[d]];
        int home = digit(point, 3);
        // follow the cycle: each point displaced goes to its own bucket's next free place
        while (home != d) {
          long displaced = points[next[home]];
          points[next[home]++] = point;
          point = displaced;
          home = digit(point, 3);
        }
        points[next[d]++] = point;
      }
    }
    int largest = 0;
    for (int d = 0; d < 256; d++) {
      largest = Math.max(largest, start[d + 1] - start[d]);
    }
    // one scratch array per thread, not per bucket: 256 buckets of a 20-million-point ring would
    // otherwise leave 160 MB of garbage behind
    int scratchLength = largest;
    ThreadLocal<long[]> scratch = ThreadLocal.withInitial(() -> new long[scratchLength]);
    IntStream buckets = IntStream.range(0, 256);
    (count >= PARALLEL_MIN ? buckets.parallel() : buckets)
        .forEach(d -> sortBucket(points, start[d], start[d + 1], scratch));
  }

  /**
   * Orders {@code points[from, to)}, whose positions share their top byte, by the lower three, with
   * the thread's scratch array.
   */
  private static void sortBucket(long[] points, int from, int to, ThreadLocal<long[]> scratch) {
    int length = to - from;
    if (length < RADIX_SORT_MIN) {
      Arrays.sort(points, from, to);
      return;
    }
    int[][] counts = new int[3][256];
    for (int i = from; i < to; i++) {
      long point = points[i];
      counts[0][digit(point, 0)]++;
      counts[1][digit(point, 1)]++;
      counts[2][digit(point, 2)]++;
    }
    long[] a = points;
    int aFrom = from;
    long[] b = scratch.get();
    int bFrom = 0;
    for (int pass = 0; pass < 3; pass++) {
      int[] c = counts[pass];
      if (c[digit(a[aFrom], pass)] == length) {
        continue; // every point has this digit: the order stays
      }
      int sum = bFrom;
      for (int d = 0; d < 256; d++) {
        int k = c[d];
        c[d] = sum;
        sum += k;
      }
      for (int i = aFrom; i < aFrom + length; i++) {
        long point = a[i];
        b[c[digit(point, pass)]++] = point;
      }
      long[] t = a;
      a = b;
      b = t;
      int f = aFrom;
      aFrom = bFrom;
      bFrom = f;
    }
    if (a != points) {
      System.arraycopy(a, aFrom, points, from, length);
    }
  }

  private static int digit(long point, int pass) {
    int key = (int) (point >>> 32);
    return pass == 3 ? (key >>> 24) ^ 0x80 : (key >>> (8 * pass)) & 0xff;
  }

  /** Rings with at least this many points hash their nodes' points on all cores. */
  private static final long PARALLEL_MIN = 1 << 16;

  /** Computes one node's points; see {@link #hashNodes}. */
  @FunctionalInterface
  interface NodePoints {
    /**
     * Writes node {@code index}'s points, packed by {@link PointRing#pack}, to {@code packed[from]}
     * to {@code packed[from + count - 1]}, and nowhere else.
     */
    void fill(int index, long[] packed, int from, int count);
  }

  /**
   * Builds the ring of nodes that get {@code pointCounts[i]} points each, computed by {@code
   * points} (see {@link #build} for {@code lowestIndexWins}). Fails with the count when there are
   * more than {@code RingSettings.checkTotalPoints} allows, before allocating anything. The nodes'
   * points are hashed on all cores when there are at least {@value #PARALLEL_MIN}; each node writes
   * only its own slice, so the result does not depend on the number of threads.
   */
  static PointRing hashNodes(long[] pointCounts, boolean lowestIndexWins, NodePoints points) {
    long total = 0;
    for (long count : pointCounts) {
      total += count;
    }
    RingSettings.checkTotalPoints(total);
    int[] offsets = new int[pointCounts.length + 1];
    for (int index = 0; index < pointCounts.length; index++) {
      offsets[index + 1] = offsets[index] + (int) pointCounts[index];
    }
    long[] packed = new long[(int) total + 1]; // + the sentinel
    IntStream indexes = IntStream.range(0, pointCounts.length);
    (total >= PARALLEL_MIN ? indexes.parallel() : indexes)
        .forEach(
            index ->
                points.fill(index, packed, offsets[index], offsets[index + 1] - offsets[index]));
    return buildInPlace(packed, (int) total, lowestIndexWins);
  }

  /**
   * A buffer for a node's point names {@code prefix + i}: the UTF-8 bytes of the prefix, with room
   * for the decimal digits of any int after them.
   */
  static byte[] nameBuffer(String prefix) {
    byte[] bytes = prefix.getBytes(StandardCharsets.UTF_8);
    return Arrays.copyOf(bytes, bytes.length + 10);
  }

  /** Packs a point so that signed long order is unsigned position order, then node index. */
  static long pack(int position, int nodeIndex) {
    return ((long) (position ^ Integer.MIN_VALUE) << 32) | nodeIndex;
  }

  private static int position(long point) {
    return (int) (point >>> 32) ^ Integer.MIN_VALUE;
  }

  private static int owner(long point) {
    return (int) point;
  }

  /** The bucket of a position: multiply-shift, so any bucket count splits the circle evenly. */
  private static int bucket(int position, int bucketCount) {
    return (int) (((position & 0xffffffffL) * bucketCount) >>> 32);
  }

  /** The owner of the first point at or after {@code hash}, wrapping. */
  int ownerAt(int hash) {
    byte[] table = slotOwners;
    if (table != null) {
      int owner = table[hash >>> slotShift];
      if (owner != MIXED) {
        return owner;
      }
    }
    return owner(points[search(hash)]);
  }

  /** The index of the first point at or after {@code hash}, wrapping to 0. */
  int pointAt(int hash) {
    int i = search(hash);
    return i == size ? 0 : i;
  }

  /**
   * The index of the first point at or after {@code hash}; {@code size} (the sentinel) past the
   * last point. Scans forward from the first point of the hash's bucket: the points are one array,
   * so the scan reads consecutive cache lines, which the CPU prefetches.
   */
  private int search(int hash) {
    int i = buckets[bucket(hash, buckets.length)];
    long key = pack(hash, 0);
    long[] points = this.points;
    // the sentinel is larger than every key, so this stops
    while (points[i] < key) {
      i++;
    }
    return i;
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
    for (int step = 0; step < size && found < n; step++) {
      int owner = owner(points[(start + step) % size]);
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

  /**
   * The first owner {@code usable} accepts walking clockwise from {@code hash}, then the pointless
   * nodes in index order, as {@link #distinctOwners}; -1 when it accepts none.
   */
  int firstUsableOwner(int hash, IntPredicate usable, int nodeCount) {
    int start = pointAt(hash);
    for (int step = 0; step < size; step++) {
      int owner = owner(points[(start + step) % size]);
      if (usable.test(owner)) {
        return owner;
      }
    }
    for (int i = 0; i < nodeCount; i++) {
      if (usable.test(i)) {
        return i; // a node all of whose points lost collisions
      }
    }
    return -1;
  }

  /**
   * Each usable node's exact share of the positions {@code [0, positionCount)} when a refused
   * node's arcs go to the next usable point clockwise; see {@link #shares(int, long)}.
   */
  double[] shares(int nodeCount, long positionCount, IntPredicate usable) {
    int[] heir = new int[size];
    int next = -1;
    // two passes backwards: the second wraps the last points' heirs round to the first ones
    for (int pass = 0; pass < 2; pass++) {
      for (int i = size - 1; i >= 0; i--) {
        int owner = owner(points[i]);
        if (usable.test(owner)) {
          next = owner;
        }
        heir[i] = next;
      }
    }
    if (next < 0) {
      return new double[nodeCount];
    }
    double[] arcs = new double[nodeCount];
    double[] pointShare = pointShares(positionCount);
    for (int i = 0; i < size; i++) {
      arcs[heir[i]] += pointShare[i];
    }
    return arcs;
  }

  /** Each point's arc as a share of {@code positionCount}; see {@link #shares(int, long)}. */
  private double[] pointShares(long positionCount) {
    positionCount = Math.max(positionCount, (maxPosition() & 0xffffffffL) + 1);
    double[] shares = new double[size];
    for (int i = 0; i < size; i++) {
      long end = position(points[i]) & 0xffffffffL;
      long start =
          i == 0
              ? (position(points[size - 1]) & 0xffffffffL) - positionCount
              : position(points[i - 1]) & 0xffffffffL;
      shares[i] = (end - start) / (double) positionCount;
    }
    return shares;
  }

  /** Each node's exact share of the 2^32 positions: the arcs ending at its points. */
  double[] shares(int nodeCount) {
    return shares(nodeCount, 1L << 32);
  }

  /**
   * Each node's exact share of the key positions {@code [0, positionCount)}: the arcs ending at its
   * points, the first point's arc wrapping from the last point through {@code positionCount - 1}.
   * {@code positionCount} is {@code 2^32} unless the hash covers less of the circle (so that the
   * unused part is credited to nobody).
   */
  double[] shares(int nodeCount, long positionCount) {
    // a hash that breaks its maxValue promise still gets shares that sum to 1
    positionCount = Math.max(positionCount, (maxPosition() & 0xffffffffL) + 1);
    long[] arcs = new long[nodeCount];
    for (int i = 0; i < size; i++) {
      long end = position(points[i]) & 0xffffffffL;
      long start =
          i == 0
              ? (position(points[size - 1]) & 0xffffffffL) - positionCount
              : position(points[i - 1]) & 0xffffffffL;
      arcs[owner(points[i])] += end - start;
    }
    double[] shares = new double[nodeCount];
    for (int i = 0; i < nodeCount; i++) {
      shares[i] = arcs[i] / (double) positionCount;
    }
    return shares;
  }

  /**
   * The arcs as a {@link PositionMap}: a key at {@code h} belongs to the first point at or after
   * it.
   */
  PositionMap positionMap(String keyPosition, ToLongFunction<CharSequence> position) {
    long last = unsignedPosition(points[size - 1]);
    // past the last point a key wraps to the first
    int wrapOwner = last < PositionMap.POSITIONS - 1 ? owner(points[0]) : -1;
    return new PositionMap(keyPosition, position, points, size, wrapOwner);
  }

  /** A packed point's position as an unsigned value. */
  static long unsignedPosition(long point) {
    return position(point) & 0xffffffffL;
  }

  int maxPosition() {
    return position(points[size - 1]);
  }

  int size() {
    return size;
  }

  /** Bytes held by the arrays, for the benchmarks' bytes-per-point figure. */
  long bytes() {
    return 8L * points.length + 4L * buckets.length;
  }
}
