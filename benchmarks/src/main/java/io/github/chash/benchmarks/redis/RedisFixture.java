package io.github.chash.benchmarks.redis;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.redis.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Three local {@code redis-server}s on free loopback ports, chash's sharded cache over them, and
 * plain Lettuce connections to the same servers: what {@link RedisCacheBenchmark} and {@link
 * RedisSideBySideBenchmark} measure.
 *
 * <p>Both sides use one Lettuce connection per server shared by all threads, the same 1,024 keys (a
 * fixed seed), and values of {@code valueSize} random bytes; plain Lettuce picks its server by key
 * index modulo 3. {@link #start()} starts the servers and fills both key sets; {@link #stop()}
 * kills the servers.
 */
@State(Scope.Benchmark)
public abstract class RedisFixture {
  private static final int KEY_COUNT = 1024;
  private static final int SERVERS = 3;

  /** Bytes per value. */
  @Param({"100", "1024"})
  public int valueSize;

  final List<RedisServerProcess> servers = new ArrayList<>();
  ShardedCacheManager manager;
  InterceptedCache cache;
  RedisClient client;
  private final List<StatefulRedisConnection<String, byte[]>> connections = new ArrayList<>();
  List<RedisAsyncCommands<String, byte[]>> plain;

  String[] routingKeys;
  String[] plainKeys;
  byte[] value;

  /** One thread's position in the key sequence. */
  @State(Scope.Thread)
  public static class Cursor {
    private int next;

    @Setup(Level.Trial)
    public void seed() {
      next = (int) (Thread.currentThread().getId() * 7919);
    }

    public int next() {
      return (next++) & (KEY_COUNT - 1);
    }
  }

  @Setup(Level.Trial)
  public void start() throws ExecutionException, InterruptedException {
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
    // a generous timeout: a benchmark must not measure misses caused by a busy machine
    yaml.append("caches:\n  bench: { ttl: 1h }\n")
        .append("failover: { failureLimit: 3, retryAfter: 30s, timeout: 2s }\n");
    manager = ShardedCaches.create(ChashConfigs.parse(yaml.toString(), "chash.yaml"));
    cache = InterceptedCache.of(manager.cache("bench"));

    client = RedisClient.create();
    RedisCodec<String, byte[]> codec = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);
    plain = new ArrayList<>();
    for (RedisServerProcess server : servers) {
      StatefulRedisConnection<String, byte[]> connection =
          client.connect(codec, RedisURI.create(server.uri()));
      connections.add(connection);
      plain.add(connection.async());
    }

    SplittableRandom random = new SplittableRandom(42);
    value = new byte[valueSize];
    for (int i = 0; i < valueSize; i++) {
      value[i] = (byte) random.nextInt(256);
    }
    routingKeys = new String[KEY_COUNT];
    plainKeys = new String[KEY_COUNT];
    for (int i = 0; i < KEY_COUNT; i++) {
      String key = "user:" + random.nextInt(1_000_000_000);
      routingKeys[i] = cache.routingKey(key, "benchmark");
      plainKeys[i] = "plain:" + routingKeys[i];
      cache.put(routingKeys[i], value);
      plain.get(i % SERVERS).set(plainKeys[i], value, SetArgs.Builder.px(3_600_000)).get();
    }
  }

  @TearDown(Level.Trial)
  public void stop() {
    if (manager != null) {
      manager.close();
    }
    connections.forEach(StatefulRedisConnection::close);
    if (client != null) {
      client.shutdown(0, 2, TimeUnit.SECONDS);
    }
    servers.forEach(RedisServerProcess::close);
  }

  /** chash: a get through the ring (hit), decoding the value. */
  Object chashGet(Cursor cursor) {
    return cache.getIfPresent(routingKeys[cursor.next()], ValueType.OBJECT);
  }

  /** Plain Lettuce: an async GET to the key's server, awaited. */
  Object lettuceGet(Cursor cursor) throws ExecutionException, InterruptedException {
    int i = cursor.next();
    return plain.get(i % SERVERS).get(plainKeys[i]).get();
  }

  /** chash: a put through the ring, encoding the value, with the cache's TTL. */
  void chashPut(Cursor cursor) {
    cache.put(routingKeys[cursor.next()], value);
  }

  /** Plain Lettuce: an async SET with a TTL to the key's server, awaited. */
  Object lettucePut(Cursor cursor) throws ExecutionException, InterruptedException {
    int i = cursor.next();
    return plain.get(i % SERVERS).set(plainKeys[i], value, SetArgs.Builder.px(3_600_000)).get();
  }
}
