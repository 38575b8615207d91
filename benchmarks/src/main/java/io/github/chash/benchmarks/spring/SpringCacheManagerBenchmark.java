package io.github.chash.benchmarks.spring;

import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.chash.benchmarks.aspect.User;
import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.ring.RingSettings;
import io.github.chash.spring.cache.ChashCacheManager;
import java.time.Duration;
import java.util.List;
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
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.caffeine.CaffeineCacheManager;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The hit of a plain {@code @Cacheable} method through Spring's proxy, on chash's {@link
 * ChashCacheManager} (4 local shards of the ring) and on Spring's {@link CaffeineCacheManager}, in
 * the same run on the same keys, all cached before measuring, 1 h TTL on both. Target (issue 18):
 * chash within 1.2x of Caffeine. String keys and {@code long} ids ({@code key = "#p0"}).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar SpringCacheManagerBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 5, time = 1)
public class SpringCacheManagerBenchmark {
  static final Duration TTL = Duration.ofHours(1);

  /** Distinct cached keys (a power of two). */
  @Param({"4096"})
  public int keys;

  String[] names;
  long[] ids;
  ShardedCacheManager manager;
  AnnotationConfigApplicationContext chashContext;
  AnnotationConfigApplicationContext caffeineContext;
  CatalogService onChash;
  CatalogService onCaffeine;

  /** Spring caching, as both applications enable it. */
  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  public static class Caching {
    /** For Spring. */
    public Caching() {}
  }

  /** Builds both contexts and caches every key in both. */
  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom random = new SplittableRandom(42);
    names = new String[keys];
    ids = new long[keys];
    for (int i = 0; i < keys; i++) {
      ids[i] = random.nextLong(1, 1L << 40);
      names[i] = "u" + Long.toString(ids[i], 36);
    }
    var builder = ShardedCaches.builder().ring(RingSettings.defaults());
    for (String shard : new String[] {"shard-a", "shard-b", "shard-c", "shard-d"}) {
      builder.node(CacheNodes.local(shard, 4L * keys), 1);
    }
    manager = builder.cache("users", TTL).build();
    chashContext = context(new ChashCacheManager(manager, false));

    CaffeineCacheManager caffeine = new CaffeineCacheManager();
    caffeine.setCaffeine(Caffeine.newBuilder().maximumSize(4L * keys).expireAfterWrite(TTL));
    caffeine.setCacheNames(List.of("users"));
    caffeine.setAllowNullValues(false);
    caffeineContext = context(caffeine);

    onChash = chashContext.getBean(CatalogService.class);
    onCaffeine = caffeineContext.getBean(CatalogService.class);
    for (int i = 0; i < keys; i++) {
      onChash.byName(names[i]);
      onChash.byId(ids[i]);
      onCaffeine.byName(names[i]);
      onCaffeine.byId(ids[i]);
    }
    if (manager.cacheStats().get("users").missCount() != 2L * keys) {
      throw new IllegalStateException("the chash context's @Cacheable did not reach chash");
    }
  }

  private static AnnotationConfigApplicationContext context(CacheManager cacheManager) {
    AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
    context.register(Caching.class);
    context.registerBean(CacheManager.class, () -> cacheManager);
    context.registerBean(CatalogService.class);
    context.refresh();
    return context;
  }

  /** Closes both contexts and the manager. */
  @TearDown(Level.Trial)
  public void tearDown() {
    chashContext.close();
    caffeineContext.close();
    manager.close();
  }

  /** Each thread walks the keys from its own random start. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;
    int mask;
    String[] names;
    long[] ids;

    /** Picks a start. */
    @Setup(Level.Trial)
    public void setUp(SpringCacheManagerBenchmark b) {
      names = b.names;
      ids = b.ids;
      mask = names.length - 1;
      next = new SplittableRandom(Thread.currentThread().getId()).nextInt(names.length);
    }

    int index() {
      return next++ & mask;
    }
  }

  /** {@code @Cacheable} string-key hit on chash. */
  @Benchmark
  public User chashHit(Cursor c) {
    return onChash.byName(c.names[c.index()]);
  }

  /** {@code @Cacheable} string-key hit on Caffeine. */
  @Benchmark
  public User caffeineHit(Cursor c) {
    return onCaffeine.byName(c.names[c.index()]);
  }

  /** {@code @Cacheable(key = "#p0")} long-id hit on chash. */
  @Benchmark
  public User chashHitLong(Cursor c) {
    return onChash.byId(c.ids[c.index()]);
  }

  /** {@code @Cacheable(key = "#p0")} long-id hit on Caffeine. */
  @Benchmark
  public User caffeineHitLong(Cursor c) {
    return onCaffeine.byId(c.ids[c.index()]);
  }

  /** String-key hit on chash, two threads. */
  @Benchmark
  @Threads(2)
  public User chashHit2Threads(Cursor c) {
    return onChash.byName(c.names[c.index()]);
  }

  /** String-key hit on Caffeine, two threads. */
  @Benchmark
  @Threads(2)
  public User caffeineHit2Threads(Cursor c) {
    return onCaffeine.byName(c.names[c.index()]);
  }
}
