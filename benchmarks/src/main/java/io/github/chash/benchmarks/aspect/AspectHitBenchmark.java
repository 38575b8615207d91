package io.github.chash.benchmarks.aspect;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.chash.aspect.ShardedCacheAspect;
import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.RingSettings;
import java.time.Duration;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * A cached method's hit path, three ways, on the same string keys: a {@code @ShardedCacheable}
 * method woven by ajc (key expression, routing key, ring lookup, the owning Caffeine shard, stats);
 * a direct {@code Cache.getIfPresent} on one Caffeine cache (the floor); Spring's
 * {@code @Cacheable} through a proxy on a {@code CaffeineCacheManager}. Targets: woven at most 3x
 * the direct lookup and at most half of Spring's. Also the miss path's overhead: a method whose
 * null result is not cached, advised or not, so every call looks up, misses and runs the body.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar AspectHitBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
public class AspectHitBenchmark {
  /** The time to live of every cache here. */
  static final Duration TTL = Duration.ofHours(1);

  /** Distinct cached keys (a power of two), all present before measuring. */
  @Param({"4096"})
  public int keys;

  String[] ids;
  ShardedCacheManager manager;
  InterceptedCache users;
  WovenUserService woven;
  Cache<String, User> caffeine;
  Cache<String, User> caffeineNoExpiry;
  AnnotationConfigApplicationContext spring;
  SpringUserService springService;

  /** Builds the three caches and fills them with every key. */
  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom random = new SplittableRandom(42);
    ids = new String[keys];
    for (int i = 0; i < keys; i++) {
      ids[i] = "u" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
    }
    var builder = ShardedCaches.builder().ring(RingSettings.defaults());
    for (String shard : new String[] {"shard-a", "shard-b", "shard-c", "shard-d"}) {
      builder.node(CacheNodes.local(shard, 4L * keys), 1);
    }
    manager = builder.cache("users", TTL).cache("misses", null).build();
    ShardedCacheAspect.setManager(manager);
    users = InterceptedCache.of(manager.cache("users"));
    woven = new WovenUserService();

    // The baselines expire entries like the sharded cache does (1h), so every lookup, like a
    // shard's, reads the clock; caffeineNoExpiry shows what that costs.
    caffeine = Caffeine.newBuilder().maximumSize(4L * keys).expireAfterWrite(TTL).build();
    caffeineNoExpiry = Caffeine.newBuilder().maximumSize(4L * keys).build();

    spring = new AnnotationConfigApplicationContext(SpringCaching.class);
    springService = spring.getBean(SpringUserService.class);

    for (String id : ids) {
      woven.find(id);
      caffeine.put(id, new User(id, "user"));
      caffeineNoExpiry.put(id, new User(id, "user"));
      springService.find(id);
    }
    if (manager.cacheStats().get("users").missCount() != keys) {
      throw new IllegalStateException(
          "WovenUserService is not woven: run the ajc step of the build");
    }
  }

  /** Releases the caches. */
  @TearDown(Level.Trial)
  public void tearDown() {
    spring.close();
    ShardedCacheAspect.setManager(null);
    manager.close();
  }

  /** Each thread walks the keys from its own random start. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;
    int mask;
    String[] ids;

    /** Picks a start. */
    @Setup(Level.Trial)
    public void setUp(AspectHitBenchmark b) {
      ids = b.ids;
      mask = ids.length - 1;
      next = new SplittableRandom(Thread.currentThread().getId()).nextInt(ids.length);
    }

    String id() {
      return ids[next++ & mask];
    }
  }

  /** The woven {@code @ShardedCacheable} hit. */
  @Benchmark
  public User wovenHit(Cursor c) {
    return woven.find(c.id());
  }

  /** A direct Caffeine hit: the floor. */
  @Benchmark
  public User caffeineHit(Cursor c) {
    return caffeine.getIfPresent(c.id());
  }

  /** The cache layer alone, no aspect: routing key, ring lookup, shard lookup, stats. */
  @Benchmark
  public Object shardedCacheHit(Cursor c) {
    return users.getIfPresent("users:" + c.id(), ValueType.OBJECT);
  }

  /** A direct Caffeine hit on a cache without expiry: no clock read. */
  @Benchmark
  public User caffeineNoExpiryHit(Cursor c) {
    return caffeineNoExpiry.getIfPresent(c.id());
  }

  /** Spring's {@code @Cacheable} hit. */
  @Benchmark
  public User springHit(Cursor c) {
    return springService.find(c.id());
  }

  /** Woven hit, two threads. */
  @Benchmark
  @Threads(2)
  public User wovenHit2Threads(Cursor c) {
    return woven.find(c.id());
  }

  /** Direct Caffeine hit, two threads. */
  @Benchmark
  @Threads(2)
  public User caffeineHit2Threads(Cursor c) {
    return caffeine.getIfPresent(c.id());
  }

  /** Spring hit, two threads. */
  @Benchmark
  @Threads(2)
  public User springHit2Threads(Cursor c) {
    return springService.find(c.id());
  }

  /** Woven miss path without a store: look up, miss, run the body. */
  @Benchmark
  public User wovenMiss(Cursor c) {
    return woven.absent(c.id());
  }

  /** Spring's miss path without a store. */
  @Benchmark
  public User springMiss(Cursor c) {
    return springService.absent(c.id());
  }

  /** The same body, not advised: what the miss path adds to. */
  @Benchmark
  public User unadvisedCall(Cursor c) {
    return woven.absentDirect(c.id());
  }
}
