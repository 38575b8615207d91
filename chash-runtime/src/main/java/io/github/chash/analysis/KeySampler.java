package io.github.chash.analysis;

import io.github.chash.ring.Node;
import io.github.chash.ring.PositionMap;
import io.github.chash.ring.Ring;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Locates sample keys on rings, in parallel over chunks of keys. Each chunk has its own scratch
 * buffer and counters, merged at the end, so the hot loop allocates nothing per key.
 *
 * <p>Counting many keys on a ring with a {@link PositionMap} hashes the keys to their positions,
 * sorts them and walks the map's segments once: the same owners as {@link Ring#locate}, without a
 * likely cache miss per key into a large ring (a million keys on two million points: about half the
 * time, measured warm on a busy 2-core machine).
 */
final class KeySampler {
  /** Keys per parallel task: large enough to amortize the task, small enough to balance cores. */
  private static final int CHUNK = 1 << 15;

  private KeySampler() {}

  /** Below this many keys, counting by sorted positions is not worth building the map. */
  static final int SORTED_COUNT_MIN = 1 << 16;

  /** Keys per node, indexed as {@code ring.nodes()}. */
  static long[] count(Ring ring, KeySource keys, int limit) {
    int n = Math.min(limit, keys.size());
    if (n >= SORTED_COUNT_MIN) {
      PositionMap map = PositionMap.of(ring).orElse(null);
      if (map != null) {
        return countByPosition(map, ring.size(), keys, n);
      }
    }
    return countByLocate(ring, keys, n);
  }

  /**
   * Keys per node by sorted positions: hashes the first {@code n} keys in parallel, sorts the
   * positions and walks the segments once.
   */
  static long[] countByPosition(PositionMap map, int nodeCount, KeySource keys, int n) {
    int[] positions = new int[n]; // unsigned
    chunks(n)
        .forEach(
            c -> {
              StringBuilder scratch = new StringBuilder(64);
              int end = Math.min(n, c + CHUNK);
              for (int i = c; i < end; i++) {
                positions[i] = (int) map.position(keys.key(i, scratch));
              }
            });
    long[] counts = new long[nodeCount];
    int segment = 0;
    for (int p : sortUnsigned(positions)) {
      long position = p & 0xffffffffL;
      // the last segment ends at 2^32 - 1, so this stops
      while (map.end(segment) < position) {
        segment++;
      }
      counts[map.owner(segment)]++;
    }
    return counts;
  }

  /**
   * The values in unsigned order: an LSD radix sort, four passes of 8 bits (the same sort on 2
   * million ring points took a quarter to a third of the CPU time of {@code Arrays.sort} or {@code
   * parallelSort}). Returns {@code values} or a new array.
   */
  static int[] sortUnsigned(int[] values) {
    int n = values.length;
    int[][] counts = new int[4][256];
    for (int v : values) {
      counts[0][v & 0xff]++;
      counts[1][(v >>> 8) & 0xff]++;
      counts[2][(v >>> 16) & 0xff]++;
      counts[3][v >>> 24]++;
    }
    int[] from = values;
    int[] to = new int[n];
    for (int pass = 0; pass < 4; pass++) {
      int shift = 8 * pass;
      int[] c = counts[pass];
      if (n == 0 || c[(from[0] >>> shift) & 0xff] == n) {
        continue; // every value has this digit: the order stays
      }
      int sum = 0;
      for (int d = 0; d < 256; d++) {
        int k = c[d];
        c[d] = sum;
        sum += k;
      }
      for (int v : from) {
        to[c[(v >>> shift) & 0xff]++] = v;
      }
      int[] t = from;
      from = to;
      to = t;
    }
    return from;
  }

  /** Keys per node by {@link Ring#locate}, for rings without a position map. */
  static long[] countByLocate(Ring ring, KeySource keys, int n) {
    List<Node> nodes = ring.nodes();
    Map<String, Integer> index = indexById(nodes);
    return chunks(n)
        .mapToObj(
            c -> {
              long[] counts = new long[nodes.size()];
              StringBuilder scratch = new StringBuilder(64);
              int end = Math.min(n, c + CHUNK);
              for (int i = c; i < end; i++) {
                counts[index.get(ring.locate(keys.key(i, scratch)).id())]++;
              }
              return counts;
            })
        .reduce(new long[nodes.size()], KeySampler::add);
  }

  /** The owner of each of the first {@code limit} keys, as an index into {@code ring.nodes()}. */
  static int[] owners(Ring ring, KeySource keys, int limit) {
    Map<String, Integer> index = indexById(ring.nodes());
    int n = Math.min(limit, keys.size());
    int[] owners = new int[n];
    chunks(n)
        .forEach(
            c -> {
              StringBuilder scratch = new StringBuilder(64);
              int end = Math.min(n, c + CHUNK);
              for (int i = c; i < end; i++) {
                owners[i] = index.get(ring.locate(keys.key(i, scratch)).id());
              }
            });
    return owners;
  }

  /**
   * How many of the keys whose owners in {@code before} are given have another owner in {@code
   * after}.
   */
  static long changed(List<Node> before, int[] owners, Ring after, KeySource keys) {
    return chunks(owners.length)
        .mapToLong(
            c -> {
              StringBuilder scratch = new StringBuilder(64);
              int end = Math.min(owners.length, c + CHUNK);
              long moved = 0;
              for (int i = c; i < end; i++) {
                if (!after.locate(keys.key(i, scratch)).id().equals(before.get(owners[i]).id())) {
                  moved++;
                }
              }
              return moved;
            })
        .sum();
  }

  /**
   * Moved keys by (from, to) node id pair, for keys whose owner differs between the rings. The pair
   * is encoded as {@code fromIndex * after.size() + toIndex}.
   */
  static Map<Long, Long> transitions(Ring before, Ring after, KeySource keys) {
    Map<String, Integer> fromIndex = indexById(before.nodes());
    Map<String, Integer> toIndex = indexById(after.nodes());
    long width = after.size();
    int n = keys.size();
    return chunks(n)
        .mapToObj(
            c -> {
              Map<Long, Long> moves = new HashMap<>();
              StringBuilder scratch = new StringBuilder(64);
              int end = Math.min(n, c + CHUNK);
              for (int i = c; i < end; i++) {
                CharSequence key = keys.key(i, scratch);
                String from = before.locate(key).id();
                String to = after.locate(key).id();
                if (!from.equals(to)) {
                  moves.merge(fromIndex.get(from) * width + toIndex.get(to), 1L, Long::sum);
                }
              }
              return moves;
            })
        .reduce(
            new HashMap<>(),
            (a, b) -> {
              Map<Long, Long> sum = new HashMap<>(a);
              b.forEach((k, v) -> sum.merge(k, v, Long::sum));
              return sum;
            });
  }

  static Map<String, Integer> indexById(List<Node> nodes) {
    Map<String, Integer> index = new HashMap<>(nodes.size() * 2);
    for (int i = 0; i < nodes.size(); i++) {
      index.put(nodes.get(i).id(), i);
    }
    return index;
  }

  private static IntStream chunks(int n) {
    // range() splits evenly across cores; iterate() would not.
    return IntStream.range(0, (n + CHUNK - 1) / CHUNK).parallel().map(c -> c * CHUNK);
  }

  private static long[] add(long[] a, long[] b) {
    long[] sum = a.clone();
    for (int i = 0; i < b.length; i++) {
      sum[i] += b[i];
    }
    return sum;
  }
}
