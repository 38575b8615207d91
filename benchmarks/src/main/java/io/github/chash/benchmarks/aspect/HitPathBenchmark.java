package io.github.chash.benchmarks.aspect;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.chash.aspect.ShardedCacheAspect;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.caffeine.CaffeineCacheManager;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * Issue 18's hit cases in one run, keyed the way services key: the floor is a direct Caffeine
 * {@code getIfPresent("users:" + id)} over 4,096 {@code long} ids (it builds the key string, as any
 * cache keyed by strings must); against it the woven {@code @ShardedCacheable(cache = "users", key
 * = "#p0")} hit on 4 local shards with a 1 h TTL for {@code long}, {@code String} and record keys,
 * and Spring's {@code @Cacheable(key = "#p0")} through its proxy on a {@code CaffeineCacheManager}
 * and on chash's {@link ChashCacheManager} (4 local shards). Every key is cached before measuring,
 * in the measured case's cache only (each holds 4,096 entries, as the floor's does); every cache
 * expires after 1 h. Targets: woven at most 2x the floor; 0 bytes per hit for {@code long} and
 * {@code String} keys ({@code -prof gc}); Spring on chash within 1.2x of Spring on Caffeine. Each
 * case runs on 1 and on 2 threads.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar HitPathBenchmark -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HitPathBenchmark {
  static final Duration TTL = Duration.ofHours(1);

  /** Distinct cached keys per key shape (a power of two), all present before measuring. */
  @Param({"4096"})
  public int keys;

  long[] ids;
  String[] names;
  Account[] accounts;
  Cache<String, String> floor;
  ShardedCacheManager woven;
  WovenLookupService wovenService;
  ShardedCacheManager underSpring;
  AnnotationConfigApplicationContext springOnCaffeine;
  AnnotationConfigApplicationContext springOnChash;
  SpringLookupService onCaffeine;
  SpringLookupService onChash;

  /** What every cached method returns for an id. */
  static String value(long id) {
    return "user " + id;
  }

  /** Spring caching, as both Spring contexts enable it. */
  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  public static class Caching {
    /** For Spring. */
    public Caching() {}
  }

  /**
   * Builds every cache and caches every key in the one the measured method reads.
   *
   * @param params which method is measured
   */
  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) {
    SplittableRandom random = new SplittableRandom(42);
    ids = new long[keys];
    names = new String[keys];
    accounts = new Account[keys];
    for (int i = 0; i < keys; i++) {
      ids[i] = random.nextLong(1, 1L << 40);
      names[i] = "u" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
      accounts[i] = new Account(i % 2 == 0 ? "eu" : "us", random.nextLong(1, 1L << 40));
    }

    floor = Caffeine.newBuilder().maximumSize(4L * keys).expireAfterWrite(TTL).build();

    woven = fourShards();
    ShardedCacheAspect.setManager(woven);
    wovenService = new WovenLookupService();

    CaffeineCacheManager caffeine = new CaffeineCacheManager();
    caffeine.setCaffeine(Caffeine.newBuilder().maximumSize(4L * keys).expireAfterWrite(TTL));
    caffeine.setCacheNames(List.of("users"));
    caffeine.setAllowNullValues(false);
    springOnCaffeine = context(caffeine);
    underSpring = fourShards();
    springOnChash = context(new ChashCacheManager(underSpring, false));
    onCaffeine = springOnCaffeine.getBean(SpringLookupService.class);
    onChash = springOnChash.getBean(SpringLookupService.class);

    // Only what the measured method reads is cached, so that its cache holds as many entries as
    // the floor's (4,096): with every shape in the woven cache it held three times as many, and
    // the extra cache misses were not chash's work.
    String measured = params.getBenchmark().replaceAll(".*\\.|2Threads$", "");
    for (int i = 0; i < keys; i++) {
      switch (measured) {
        case "caffeineFloor" -> floor.put("users:" + ids[i], value(ids[i]));
        case "wovenLong" -> wovenService.find(ids[i]);
        case "wovenString" -> wovenService.findByName(names[i]);
        case "wovenRecord" -> wovenService.findByAccount(accounts[i]);
        case "springCaffeine" -> onCaffeine.find(ids[i]);
        case "springChash" -> onChash.find(ids[i]);
        default -> throw new IllegalStateException("no keys to cache for " + measured);
      }
    }
    if (measured.startsWith("woven") && woven.cacheStats().get("users").missCount() != keys) {
      throw new IllegalStateException(
          "WovenLookupService is not woven: run the ajc step of the build");
    }
    if (measured.equals("springChash")
        && underSpring.cacheStats().get("users").missCount() != keys) {
      throw new IllegalStateException("the chash context's @Cacheable did not reach chash");
    }
  }

  private ShardedCacheManager fourShards() {
    var builder = ShardedCaches.builder().ring(RingSettings.defaults());
    for (String shard : new String[] {"shard-a", "shard-b", "shard-c", "shard-d"}) {
      builder.node(CacheNodes.local(shard, 4L * keys), 1);
    }
    return builder.cache("users", TTL).build();
  }

  private static AnnotationConfigApplicationContext context(CacheManager cacheManager) {
    AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
    context.register(Caching.class);
    context.registerBean(CacheManager.class, () -> cacheManager);
    context.registerBean(SpringLookupService.class);
    context.refresh();
    return context;
  }

  /** Releases the contexts and the managers. */
  @TearDown(Level.Trial)
  public void tearDown() {
    springOnCaffeine.close();
    springOnChash.close();
    ShardedCacheAspect.setManager(null);
    woven.close();
    underSpring.close();
  }

  /** Each thread walks the keys from its own random start. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;
    int mask;

    /** Picks a start. */
    @Setup(Level.Trial)
    public void setUp(HitPathBenchmark b) {
      mask = b.keys - 1;
      next = new SplittableRandom(Thread.currentThread().getId()).nextInt(b.keys);
    }

    int index() {
      return next++ & mask;
    }
  }

  /** The floor: a direct Caffeine hit on the string key {@code "users:" + id}. */
  @Benchmark
  public String caffeineFloor(Cursor c) {
    return floor.getIfPresent("users:" + ids[c.index()]);
  }

  /** Woven hit, {@code long} key. */
  @Benchmark
  public String wovenLong(Cursor c) {
    return wovenService.find(ids[c.index()]);
  }

  /** Woven hit, {@code String} key. */
  @Benchmark
  public String wovenString(Cursor c) {
    return wovenService.findByName(names[c.index()]);
  }

  /** Woven hit, record key. */
  @Benchmark
  public String wovenRecord(Cursor c) {
    return wovenService.findByAccount(accounts[c.index()]);
  }

  /** Spring {@code @Cacheable(key = "#p0")} on {@code CaffeineCacheManager}, {@code long} key. */
  @Benchmark
  public String springCaffeine(Cursor c) {
    return onCaffeine.find(ids[c.index()]);
  }

  /** Spring {@code @Cacheable(key = "#p0")} on chash's {@code CacheManager}, {@code long} key. */
  @Benchmark
  public String springChash(Cursor c) {
    return onChash.find(ids[c.index()]);
  }

  /** The floor, two threads. */
  @Benchmark
  @Threads(2)
  public String caffeineFloor2Threads(Cursor c) {
    return caffeineFloor(c);
  }

  /** Woven {@code long} hit, two threads. */
  @Benchmark
  @Threads(2)
  public String wovenLong2Threads(Cursor c) {
    return wovenLong(c);
  }

  /** Woven {@code String} hit, two threads. */
  @Benchmark
  @Threads(2)
  public String wovenString2Threads(Cursor c) {
    return wovenString(c);
  }

  /** Woven record hit, two threads. */
  @Benchmark
  @Threads(2)
  public String wovenRecord2Threads(Cursor c) {
    return wovenRecord(c);
  }

  /** Spring on Caffeine, two threads. */
  @Benchmark
  @Threads(2)
  public String springCaffeine2Threads(Cursor c) {
    return springCaffeine(c);
  }

  /** Spring on chash, two threads. */
  @Benchmark
  @Threads(2)
  public String springChash2Threads(Cursor c) {
    return springChash(c);
  }
}
