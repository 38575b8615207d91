package io.github.chash.benchmarks.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.redis.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.support.caching.CacheAccessor;
import io.lettuce.core.support.caching.CacheFrontend;
import io.lettuce.core.support.caching.ClientSideCaching;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
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
import org.redisson.Redisson;
import org.redisson.api.RLocalCachedMap;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.LocalCachedMapOptions;
import org.redisson.config.Config;

/**
 * Issue 32's near cache, side by side in one run: a hit on hot keys of a cache with {@code near:}
 * over three local {@code redis-server}s, against the floor, a bare Caffeine {@code getIfPresent}
 * in a cache bounded as the near cache is, and against a hit through chash on the same servers
 * without a near cache (a round trip and a decode). Keys are {@code long} ids, as in {@code
 * HitPathBenchmark}: the floor builds its key string ({@code "near:" + id}) as any cache keyed by
 * strings must, and chash builds the same routing key. The {@code *Prebuilt} rows take the key
 * strings ready-made, so they show the bare cost of each lookup. Every key is read through each
 * cache before measuring, so the near cache holds all of them and every Redis read hits. Target:
 * the near hit at most 2x the floor. The floor and the near hit run on 1 and on 2 threads.
 *
 * <p>The peers' near caches on the first server, in the same run: Lettuce's {@code
 * ClientSideCaching} (a {@code ConcurrentHashMap} kept by {@code CLIENT TRACKING}) and Redisson's
 * {@code RLocalCachedMap} (its own local cache, invalidated through a topic), both with String keys
 * and values, each key read once through them before measuring.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar NearCacheBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class NearCacheBenchmark {
  private static final int SERVERS = 3;

  /** Hot keys (a power of two), all cached before measuring. */
  @Param({"1024"})
  public int keys;

  final List<RedisServerProcess> servers = new ArrayList<>();
  ShardedCacheManager manager;
  InterceptedCache near;
  InterceptedCache remote;
  Cache<String, Object> floor;
  RedisClient lettuce;
  StatefulRedisConnection<String, String> lettuceConnection;
  CacheFrontend<String, String> lettuceNear;
  RedissonClient redisson;
  RLocalCachedMap<String, String> redissonNear;
  long[] ids;
  String[] nearKeys;
  String[] remoteKeys;

  /** Starts the servers and caches every key in each cache. */
  @Setup(Level.Trial)
  public void start() {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (int i = 1; i <= SERVERS; i++) {
      RedisServerProcess server = RedisServerProcess.start();
      servers.add(server);
      yaml.append("  - id: r")
          .append(i)
          .append("\n    type: redis\n    uri: ")
          .append(server.uri())
          .append('\n');
    }
    yaml.append("caches:\n")
        .append("  near: { ttl: 1h, near: { maximumSize: ")
        .append(4 * keys)
        .append(", ttl: 1h } }\n")
        .append("  remote: { ttl: 1h }\n")
        // a generous timeout: a benchmark must not measure misses caused by a busy machine
        .append("failover: { failureLimit: 3, retryAfter: 30s, timeout: 2s }\n");
    manager = ShardedCaches.create(ChashConfigs.parse(yaml.toString(), "chash.yaml"));
    near = InterceptedCache.of(manager.cache("near"));
    remote = InterceptedCache.of(manager.cache("remote"));
    floor = Caffeine.newBuilder().maximumSize(4L * keys).build();

    SplittableRandom random = new SplittableRandom(42);
    ids = new long[keys];
    nearKeys = new String[keys];
    remoteKeys = new String[keys];
    for (int i = 0; i < keys; i++) {
      long id = random.nextLong(1, 1L << 40);
      String value = "user " + id;
      ids[i] = id;
      nearKeys[i] = near.routingKey(id, "benchmark");
      remoteKeys[i] = remote.routingKey(id, "benchmark");
      if (!nearKeys[i].equals("near:" + id)) {
        throw new IllegalStateException("the floor's key is not chash's: " + nearKeys[i]);
      }
      near.put(nearKeys[i], value);
      remote.put(remoteKeys[i], value);
      floor.put(nearKeys[i], value);
    }
    startPeers();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (int i = 0; i < keys; i++) {
      // the put's own invalidation may come after a first read: read until the near cache serves
      long hits = near.stats().nearHitCount();
      while (near.getIfPresent(nearKeys[i], ValueType.OBJECT) == null
          || near.stats().nearHitCount() == hits) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("key " + nearKeys[i] + " never served by the near cache");
        }
        hits = near.stats().nearHitCount();
      }
      if (remote.getIfPresent(remoteKeys[i], ValueType.OBJECT) == null) {
        throw new IllegalStateException("key " + remoteKeys[i] + " missed on Redis");
      }
    }
  }

  /** Lettuce's and Redisson's near caches on the first server, each key read once through them. */
  private void startPeers() {
    String uri = servers.get(0).uri();
    lettuce = RedisClient.create(uri);
    lettuceConnection = lettuce.connect(StringCodec.UTF8);
    lettuceNear =
        ClientSideCaching.enable(
            CacheAccessor.forMap(new ConcurrentHashMap<>()),
            lettuceConnection,
            TrackingArgs.Builder.enabled());
    Config config = new Config();
    config.useSingleServer().setAddress(uri);
    redisson = Redisson.create(config);
    redissonNear =
        redisson.getLocalCachedMap(
            LocalCachedMapOptions.<String, String>name("peer-near")
                .cacheSize(4 * keys)
                .codec(org.redisson.client.codec.StringCodec.INSTANCE));
    for (String key : nearKeys) {
      String value = "user " + key;
      lettuceConnection.sync().set(key, value);
      redissonNear.fastPut(key, value);
    }
    for (String key : nearKeys) {
      if (lettuceNear.get(key) == null || redissonNear.get(key) == null) {
        throw new IllegalStateException("key " + key + " missed on a peer");
      }
    }
  }

  /** Stops the peers, the manager and the servers. */
  @TearDown(Level.Trial)
  public void stop() {
    if (lettuceNear != null) {
      lettuceNear.close();
      lettuce.shutdown();
    }
    if (redisson != null) {
      redisson.shutdown();
    }
    if (manager != null) {
      manager.close();
    }
    servers.forEach(RedisServerProcess::close);
  }

  /** Each thread walks the keys from its own start. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;
    int mask;

    /**
     * Picks a start.
     *
     * @param benchmark the keys' count
     */
    @Setup(Level.Trial)
    public void seed(NearCacheBenchmark benchmark) {
      next = (int) (Thread.currentThread().getId() * 7919);
      mask = benchmark.keys - 1;
    }

    int next() {
      return next++ & mask;
    }
  }

  /**
   * A bare Caffeine hit on a key string built from the id: the floor.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  public Object caffeineFloor(Cursor cursor) {
    return floor.getIfPresent("near:" + ids[cursor.next()]);
  }

  /**
   * A hit through chash on a cache with a near cache, by id: served in this JVM.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  public Object nearHit(Cursor cursor) {
    return near.getIfPresent(near.key(ids[cursor.next()]), ValueType.OBJECT);
  }

  /**
   * A hit through chash on a cache without one, by id: a round trip to the key's server and a
   * decode.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  public Object redisHit(Cursor cursor) {
    return remote.getIfPresent(remote.key(ids[cursor.next()]), ValueType.OBJECT);
  }

  /**
   * {@link #caffeineFloor} on two threads.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  @Threads(2)
  public Object caffeineFloor2Threads(Cursor cursor) {
    return caffeineFloor(cursor);
  }

  /**
   * {@link #nearHit} on two threads.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  @Threads(2)
  public Object nearHit2Threads(Cursor cursor) {
    return nearHit(cursor);
  }

  /**
   * {@link #caffeineFloor} on the key strings ready-made.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  public Object caffeineFloorPrebuilt(Cursor cursor) {
    return floor.getIfPresent(nearKeys[cursor.next()]);
  }

  /**
   * {@link #nearHit} on the routing keys ready-made.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  public Object nearHitPrebuilt(Cursor cursor) {
    return near.getIfPresent(nearKeys[cursor.next()], ValueType.OBJECT);
  }

  /**
   * Lettuce's {@code ClientSideCaching} hit on a key string built from the id.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  public Object lettuceNearHit(Cursor cursor) {
    return lettuceNear.get("near:" + ids[cursor.next()]);
  }

  /**
   * Redisson's {@code RLocalCachedMap} hit on a key string built from the id.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  public Object redissonNearHit(Cursor cursor) {
    return redissonNear.get("near:" + ids[cursor.next()]);
  }

  /**
   * {@link #lettuceNearHit} on two threads.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  @Threads(2)
  public Object lettuceNearHit2Threads(Cursor cursor) {
    return lettuceNearHit(cursor);
  }

  /**
   * {@link #redissonNearHit} on two threads.
   *
   * @param cursor the thread's keys
   * @return the value
   */
  @Benchmark
  @Threads(2)
  public Object redissonNearHit2Threads(Cursor cursor) {
    return redissonNearHit(cursor);
  }
}
