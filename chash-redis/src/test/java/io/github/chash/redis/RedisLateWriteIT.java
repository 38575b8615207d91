package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import org.junit.jupiter.api.Test;

/**
 * Issue 42: a put that reaches the server after its caller gave up never lands over a newer write
 * another JVM completed meanwhile. Two managers stand for two JVMs on one real {@code
 * redis-server}; JVM A reaches it through a proxy that holds A's requests (A's pod paused, or a
 * network path that buffers), JVM B directly. A's put of v2 is held past its timeout, so its caller
 * gives up (a miss for A, no exception); B then puts v3, and its put completes; then the proxy lets
 * A's request through. Without the server's check, v2 lands over v3 and every JVM reads it: the
 * older write, by real time, over the newer. With it ({@link RedisServerTime}), the server refuses
 * the late write and B reads v3.
 */
class RedisLateWriteIT {
  private static final ValueType STRING = ValueType.of(String.class);

  @Test
  void putHeldPastItsCallersTimeout_isRefusedByTheServer_theNewerWriteStays() throws Exception {
    try (RedisServerProcess server = RedisServerProcess.start();
        HoldingProxy proxy = HoldingProxy.start(server.port());
        ShardedCacheManager a = manager(proxy.port());
        ShardedCacheManager b = manager(server.port())) {
      InterceptedCache usersA = InterceptedCache.of(a.cache("users"));
      InterceptedCache usersB = InterceptedCache.of(b.cache("users"));
      String key = usersB.routingKey("order-1", "test");
      usersB.put(key, "v1");

      proxy.pause();
      usersA.put(key, "v2"); // held past the timeout: the caller gives up, no exception
      long failedInA = a.nodeStats().get("n").errorCount();
      usersB.put(key, "v3"); // completes: the last write, by real time
      proxy.resume();
      // A's connection is first in, first out: the ping's reply comes after the held put was
      // served (or refused)
      a.node("n").ping();

      Object read = usersB.getIfPresent(key, STRING);
      System.out.printf(
          "%n=== put held past its caller's timeout (A failed %d call), then a newer put: B reads"
              + " %s%n",
          failedInA, read);
      assertThat(failedInA).as("A's put timed out").isEqualTo(1);
      assertThat(read).as("the newer write stays").isEqualTo("v3");
    }
  }

  private static ShardedCacheManager manager(int port) {
    String yaml =
        "nodes:\n  - { id: n, type: redis, uri: \"redis://127.0.0.1:"
            + port
            + "\" }\n"
            + "caches:\n  users: { ttl: 10m }\n"
            + "failover: { failureLimit: 3, retryAfter: 60s, timeout: 100ms }\n";
    return LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")));
  }
}
