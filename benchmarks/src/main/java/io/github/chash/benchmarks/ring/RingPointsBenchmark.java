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
 * Diagnosis, not part of the README table: where a chash {@code ring} lookup spends its time. Splits
 * it into the key's hashing alone ({@code keyHashOnly}: UTF-8 encoding plus xxh3, what every chash
 * lookup pays) and the full lookup for several {@code pointsPerWeight}, so the cost of the point
 * array's size (cache misses) shows as the difference.
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

  @Setup(Level.Trial)
  public void setUp() {
    keys = BenchKeys.keys(KEY_COUNT);
    RingSettings settings =
        RingSettings.builder()
            .algorithm(Algorithm.RING)
            .hash("xxh3")
            .pointsPerWeight(pointsPerWeight)
            .build();
    java.util.List<Node> chashNodes = Contender.nodes(BenchKeys.nodeIds(nodes));
    ring = Rings.create(settings, chashNodes);
    xxh3 = com.dynatrace.hash4j.hashing.Hashing.xxh3_64();
  }

  private String nextKey() {
    return keys[next++ & KEY_MASK];
  }

  @Benchmark
  public Node lookup() {
    return ring.locate(nextKey());
  }

  @Benchmark
  public long keyHashOnly() {
    return xxh3.hashBytesToLong(nextKey().getBytes(StandardCharsets.UTF_8));
  }
}
