package io.github.chash.benchmarks.ring;

import com.dynatrace.hash4j.consistent.ConsistentBucketHasher;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.google.common.hash.HashFunction;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.nio.charset.StandardCharsets;
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
 * Key-to-node lookup, the key's hashing included, over {@code nodes} equal nodes: each chash
 * algorithm with default settings (xxh3; ketama is MD5 by definition) side by side with its peers.
 *
 * <p>Keys are 65,536 precomputed strings like {@code "user:123456789"} from a fixed seed, cycled
 * with an index mask so the loop costs one array load. Each method returns the located node so JMH
 * consumes it; peers that answer a bucket index (Guava, hash4j) pay the array load to a node like
 * the others. hash4j's JumpBackHash hashes the key's chars directly ({@code hashCharsToLong}, its
 * fastest path); {@code hash4jJumpBackHashUtf8} shows the cost of the UTF-8 encoding chash's
 * routing keys use.
 *
 * <p>The {@code *ManyKeys} methods (issue 18) cycle through {@value #MANY_KEYS} distinct keys
 * instead: far more than the CPU caches hold, as a service's key set is, so every lookup also pays
 * for reading a key that is not cached (the same for every contender) and the ring's points are
 * touched at random. Target: {@code chashRingManyKeys} at 1000 nodes at most 4x {@code
 * hash4jJumpBackHashManyKeys}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RingLookupBenchmark {
  private static final int KEY_COUNT = 1 << 16;
  private static final int KEY_MASK = KEY_COUNT - 1;

  /** Distinct keys of the {@code *ManyKeys} methods: 2^20, over a million. */
  static final int MANY_KEYS = 1 << 20;

  @Param({"10", "100", "1000"})
  public int nodes;

  private String[] keys;
  private int next;
  private String[] manyKeys;
  private int nextOfMany;

  private Ring ring;
  private Ring ketama;
  private Ring maglev;
  private Ring rendezvous;
  private Ring jump;
  private KetamaNodeLocator spymemcached;
  private String[] buckets;
  private HashFunction murmur3;
  private ConsistentBucketHasher jumpBack;
  private Hasher64 xxh3;
  private SeedTreeMapRing seedRing;

  @Setup(Level.Trial)
  public void setUp() {
    keys = BenchKeys.keys(KEY_COUNT);
    manyKeys = BenchKeys.keys(MANY_KEYS);
    List<String> ids = BenchKeys.nodeIds(nodes);
    List<Node> chashNodes = Contender.nodes(ids);
    ring = Rings.create(Contender.settings(Algorithm.RING, "xxh3"), chashNodes);
    ketama = Rings.create(RingSettings.of(Algorithm.KETAMA), chashNodes);
    maglev = Rings.create(Contender.settings(Algorithm.MAGLEV, "xxh3"), chashNodes);
    rendezvous = Rings.create(Contender.settings(Algorithm.RENDEZVOUS, "xxh3"), chashNodes);
    jump = Rings.create(Contender.settings(Algorithm.JUMP, "xxh3"), chashNodes);
    spymemcached = SpyNodes.locator(ids);
    buckets = ids.toArray(String[]::new);
    murmur3 = com.google.common.hash.Hashing.murmur3_128();
    jumpBack = Contender.jumpBackHasher();
    xxh3 = com.dynatrace.hash4j.hashing.Hashing.xxh3_64();
    seedRing = new SeedTreeMapRing(ids);
  }

  private String nextKey() {
    return keys[next++ & KEY_MASK];
  }

  /** One of {@link #MANY_KEYS} keys, in the order they were drawn (so memory order is random). */
  private String nextOfMany() {
    return manyKeys[nextOfMany++ & (MANY_KEYS - 1)];
  }

  @Benchmark
  public Node chashRing() {
    return ring.locate(nextKey());
  }

  @Benchmark
  public Node chashKetama() {
    return ketama.locate(nextKey());
  }

  @Benchmark
  public Node chashMaglev() {
    return maglev.locate(nextKey());
  }

  @Benchmark
  public Node chashRendezvous() {
    return rendezvous.locate(nextKey());
  }

  @Benchmark
  public Node chashJump() {
    return jump.locate(nextKey());
  }

  @Benchmark
  public MemcachedNode spymemcachedKetama() {
    return spymemcached.getPrimary(nextKey());
  }

  @Benchmark
  public String guavaConsistentHash() {
    return buckets[
        com.google.common.hash.Hashing.consistentHash(
            murmur3.hashString(nextKey(), StandardCharsets.UTF_8), buckets.length)];
  }

  @Benchmark
  public String hash4jJumpBackHash() {
    return buckets[jumpBack.getBucket(xxh3.hashCharsToLong(nextKey()), buckets.length)];
  }

  /** JumpBackHash over xxh3 of the key's UTF-8 bytes, the encoding chash hashes (for reference). */
  @Benchmark
  public String hash4jJumpBackHashUtf8() {
    return buckets[
        jumpBack.getBucket(
            xxh3.hashBytesToLong(nextKey().getBytes(StandardCharsets.UTF_8)), buckets.length)];
  }

  @Benchmark
  public String seedTreeMapRing() {
    return seedRing.get(nextKey());
  }

  /** {@code ring} over {@link #MANY_KEYS} distinct keys. */
  @Benchmark
  public Node chashRingManyKeys() {
    return ring.locate(nextOfMany());
  }

  /** {@code maglev} over {@link #MANY_KEYS} distinct keys. */
  @Benchmark
  public Node chashMaglevManyKeys() {
    return maglev.locate(nextOfMany());
  }

  /** hash4j JumpBackHash (chars, its fastest path) over {@link #MANY_KEYS} distinct keys. */
  @Benchmark
  public String hash4jJumpBackHashManyKeys() {
    return buckets[jumpBack.getBucket(xxh3.hashCharsToLong(nextOfMany()), buckets.length)];
  }
}
