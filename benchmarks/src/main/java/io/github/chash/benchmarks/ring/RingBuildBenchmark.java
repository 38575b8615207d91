package io.github.chash.benchmarks.ring;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
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
 * Time to build a lookup structure for {@code nodes} equal nodes, from node descriptions that
 * already exist (chash {@link Node}s, spymemcached nodes, id strings). Guava's and hash4j's
 * consistent hashes build nothing, so they are absent.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RingBuildBenchmark {
  @Param({"1000"})
  public int nodes;

  private List<String> ids;
  private List<Node> chashNodes;
  private List<MemcachedNode> spyNodes;

  @Setup(Level.Trial)
  public void setUp() {
    ids = BenchKeys.nodeIds(nodes);
    chashNodes = Contender.nodes(ids);
    spyNodes = SpyNodes.nodes(ids);
  }

  @Benchmark
  public Ring chashRing() {
    return Rings.create(Contender.settings(Algorithm.RING, "xxh3"), chashNodes);
  }

  @Benchmark
  public Ring chashKetama() {
    return Rings.create(RingSettings.of(Algorithm.KETAMA), chashNodes);
  }

  @Benchmark
  public Ring chashMaglev() {
    return Rings.create(Contender.settings(Algorithm.MAGLEV, "xxh3"), chashNodes);
  }

  @Benchmark
  public Ring chashRendezvous() {
    return Rings.create(Contender.settings(Algorithm.RENDEZVOUS, "xxh3"), chashNodes);
  }

  @Benchmark
  public Ring chashJump() {
    return Rings.create(Contender.settings(Algorithm.JUMP, "xxh3"), chashNodes);
  }

  @Benchmark
  public KetamaNodeLocator spymemcachedKetama() {
    return new KetamaNodeLocator(spyNodes, net.spy.memcached.DefaultHashAlgorithm.KETAMA_HASH);
  }

  @Benchmark
  public Object seedTreeMapRing() {
    return new SeedTreeMapRing(ids);
  }
}
