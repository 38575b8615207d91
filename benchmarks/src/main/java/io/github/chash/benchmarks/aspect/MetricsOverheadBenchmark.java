package io.github.chash.benchmarks.aspect;

import io.github.chash.aspect.ShardedCacheAspect;
import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.CacheRecorder;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.micrometer.MicrometerCacheRecorder;
import io.github.chash.redis.RedisServerProcess;
import io.github.chash.ring.RingSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Issue 46's cost of metrics on the hit path: the same hits with no recorder ({@code metrics=off},
 * the default {@link CacheRecorder#NONE}) and with a {@link MicrometerCacheRecorder} over a {@link
 * SimpleMeterRegistry} ({@code metrics=on}): a woven {@code @ShardedCacheable} hit on 4 local
 * shards (local calls are counted, not timed), a near-cache hit in front of a real redis-server
 * (timed by {@code chash.near.hits}) and a hit read from that redis-server ({@code
 * chash.node.calls}). 1,024 keys, all cached before measuring. Target: on within 5% of off.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar MetricsOverheadBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class MetricsOverheadBenchmark {
  private static final int KEYS = 1024;
  private static final ValueType STRING = ValueType.of(String.class);

  /** Whether the managers have a Micrometer recorder. */
  @Param({"off", "on"})
  public String metrics;

  long[] ids;
  String[] nearKeys;
  String[] remoteKeys;
  RedisServerProcess redis;
  ShardedCacheManager woven;
  ShardedCacheManager remote;
  WovenLookupService wovenService;
  InterceptedCache near;
  InterceptedCache far;

  /** Starts the server, builds the managers and caches every key. */
  @Setup(Level.Trial)
  public void setUp() {
    CacheRecorder recorder =
        metrics.equals("on")
            ? new MicrometerCacheRecorder(new SimpleMeterRegistry())
            : CacheRecorder.NONE;
    var builder = ShardedCaches.builder().ring(RingSettings.defaults()).recorder(recorder);
    for (String shard : new String[] {"shard-a", "shard-b", "shard-c", "shard-d"}) {
      builder.node(CacheNodes.local(shard, 4L * KEYS), 1);
    }
    woven = builder.cache("users", Duration.ofHours(1)).build();
    ShardedCacheAspect.setManager(woven);
    wovenService = new WovenLookupService();

    redis = RedisServerProcess.start();
    String yaml =
        "nodes:\n"
            + "  - {id: r1, type: redis, uri: '"
            + redis.uri()
            + "'}\n"
            + "caches:\n"
            + "  near: {ttl: 1h, near: {maximumSize: 4096, ttl: 1h}}\n"
            + "  far: {ttl: 1h}\n"
            + "failover: { failureLimit: 3, retryAfter: 30s, timeout: 2s }\n";
    remote =
        ShardedCaches.builder()
            .config(ChashConfigs.parse(yaml, "chash.yaml"))
            .recorder(recorder)
            .build();
    near = InterceptedCache.of(remote.cache("near"));
    far = InterceptedCache.of(remote.cache("far"));
    awaitTracking();

    SplittableRandom random = new SplittableRandom(42);
    ids = new long[KEYS];
    nearKeys = new String[KEYS];
    remoteKeys = new String[KEYS];
    for (int i = 0; i < KEYS; i++) {
      ids[i] = random.nextLong(1, 1L << 40);
      wovenService.find(ids[i]);
      nearKeys[i] = near.routingKey(ids[i], "benchmark");
      remoteKeys[i] = far.routingKey(ids[i], "benchmark");
      near.put(nearKeys[i], "user " + ids[i]);
      far.put(remoteKeys[i], "user " + ids[i]);
      near.getIfPresent(nearKeys[i], STRING); // read once from the server, then kept near
    }
  }

  private void awaitTracking() {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!io.github.chash.cache.ManagerHooks.tracking(remote, "r1")) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("node r1 never tracked its keys");
      }
      LockSupport.parkNanos(10_000_000);
    }
  }

  /**
   * Releases the managers and the server, after checking that the measured case hit.
   *
   * @param params which method was measured
   */
  @TearDown(Level.Trial)
  public void tearDown(BenchmarkParams params) {
    String measured = params.getBenchmark().replaceAll(".*\\.", "");
    long hits =
        switch (measured) {
          case "wovenHit" -> woven.cacheStats().get("users").hitCount() - KEYS;
          case "nearHit" -> remote.cacheStats().get("near").nearHitCount();
          default -> remote.cacheStats().get("far").hitCount();
        };
    ShardedCacheAspect.setManager(null);
    woven.close();
    remote.close();
    redis.close();
    if (hits <= 0) {
      throw new IllegalStateException(measured + " measured no hits");
    }
  }

  /** Each thread walks the keys from its own start. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;

    /** Picks a start. */
    @Setup(Level.Trial)
    public void seed() {
      next = (int) (Thread.currentThread().getId() * 7919);
    }

    int next() {
      return (next++) & (KEYS - 1);
    }
  }

  /** A woven hit on a local shard. */
  @Benchmark
  public String wovenHit(Cursor cursor) {
    return wovenService.find(ids[cursor.next()]);
  }

  /** A near-cache hit in front of Redis. */
  @Benchmark
  public Object nearHit(Cursor cursor) throws Throwable {
    return near.getIfPresent(nearKeys[cursor.next()], STRING);
  }

  /** A hit read from Redis. */
  @Benchmark
  public Object redisHit(Cursor cursor) throws Throwable {
    return far.getIfPresent(remoteKeys[cursor.next()], STRING);
  }
}
