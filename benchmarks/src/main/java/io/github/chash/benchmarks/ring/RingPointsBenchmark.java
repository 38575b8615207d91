package io.github.chash.benchmarks.ring;

import com.dynatrace.hash4j.hashing.Hasher64;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Diagnosis, not part of the README table: where a chash {@code ring} lookup spends its time.
 * Splits it into the key's hashing alone ({@code keyHashOnly}: UTF-8 encoding plus xxh3, what every
 * chash lookup pays) and the full lookup for several {@code pointsPerWeight}, so the cost of the
 * point array's size (cache misses) shows as the difference.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RingPointsBenchmark {
  private static final int KEY_COUNT = 1 << 16;
  private static final int KEY_MASK = KEY_COUNT - 1;

  @Param({"1000"})
  public int nodes;

  @Param({"10", "100", "1000"})
  public int pointsPerWeight;

  private String[] keys;
  private int next;
  private Ring ring;
  private Hasher64 xxh3;
  private java.util.List<Node> chashNodes;
  private long[] packed;
  private int[] bucketStart;
  private int bucketBits;

  @Setup(Level.Trial)
  public void setUp() {
    keys = BenchKeys.keys(KEY_COUNT);
    RingSettings settings =
        RingSettings.builder()
            .algorithm(Algorithm.RING)
            .hash("xxh3")
            .pointsPerWeight(pointsPerWeight)
            .build();
    chashNodes = Contender.nodes(BenchKeys.nodeIds(nodes));
    ring = Rings.create(settings, chashNodes);
    xxh3 = com.dynatrace.hash4j.hashing.Hashing.xxh3_64();
    buildPrototype();
  }

  // Mirrors chash's VirtualNodeRing point naming (id + "#" + i, top 32 bits of xxh3 over UTF-8);
  // collisions keep the lowest owner index, as chash does.
  private void buildPrototype() {
    java.util.List<Node> sorted = new java.util.ArrayList<>(chashNodes);
    java.util.Collections.sort(sorted);
    chashNodes = sorted;
    long[] all = new long[sorted.size() * pointsPerWeight];
    int c = 0;
    for (int owner = 0; owner < sorted.size(); owner++) {
      String prefix = sorted.get(owner).id() + "#";
      for (int i = 0; i < pointsPerWeight; i++) {
        int position =
            (int) (xxh3.hashBytesToLong((prefix + i).getBytes(StandardCharsets.UTF_8)) >>> 32);
        all[c++] = (long) (position ^ Integer.MIN_VALUE) << 32 | owner;
      }
    }
    java.util.Arrays.sort(all);
    int n = 0;
    for (int i = 0; i < all.length; i++) {
      if (n == 0 || (all[n - 1] >>> 32) != (all[i] >>> 32)) {
        all[n++] = all[i];
      }
    }
    packed = java.util.Arrays.copyOf(all, n);
    bucketBits = 31 - Integer.numberOfLeadingZeros(n) - 1;
    int buckets = 1 << bucketBits;
    bucketStart = new int[buckets + 1];
    int p = 0;
    for (int b = 0; b < buckets; b++) {
      while (p < n && ((int) (packed[p] >>> 32) ^ Integer.MIN_VALUE) >>> (32 - bucketBits) < b) {
        p++;
      }
      bucketStart[b] = p;
    }
    bucketStart[buckets] = n;
  }

  private String nextKey() {
    return keys[next++ & KEY_MASK];
  }

  @Benchmark
  public Node lookup() {
    return ring.locate(nextKey());
  }

  /**
   * A prototype of the same ring (same point names, same hash, same positions) with each point's
   * position and owner packed into one {@code long[]} entry, so a lookup touches two arrays (bucket
   * index, points) instead of three: how much of {@link #lookup()} the third cache miss costs.
   */
  @Benchmark
  public Node packedPrototype() {
    String key = nextKey();
    int h = (int) (xxh3.hashBytesToLong(key.getBytes(StandardCharsets.UTF_8)) >>> 32);
    int b = h >>> (32 - bucketBits);
    int i = bucketStart[b];
    int end = bucketStart[b + 1];
    // Entries hold ((position ^ MIN_VALUE) << 32 | owner): signed order is unsigned position order.
    long target = (long) (h ^ Integer.MIN_VALUE) << 32;
    while (i < end && packed[i] < target) {
      i++;
    }
    if (i == packed.length) {
      i = 0;
    }
    return chashNodes.get((int) packed[i]);
  }

  @Benchmark
  public long keyHashOnly() {
    return xxh3.hashBytesToLong(nextKey().getBytes(StandardCharsets.UTF_8));
  }
}
