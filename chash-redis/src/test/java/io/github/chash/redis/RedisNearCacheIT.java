package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.cache.WriteHistory;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The near cache on three real Redis servers, with two managers standing for two JVMs of a service:
 * A writes without a near cache, B reads with one. How long B keeps serving a value after A's write
 * of a newer one completed (the invalidation's trip from the server), what a killed tracking
 * connection and a restarted server leave in B (nothing older once tracking is back), and, within
 * one JVM, that no read returns a value older than a write completed before it began. Within one
 * JVM a node also tells the other managers' channels of a write as it makes it ({@code
 * LocalChannels}), so B's figures here are those of that report, not the server's trip: {@link
 * RedisNearProcessesIT} measures two processes.
 */
class RedisNearCacheIT {
  private static final ValueType STRING = ValueType.of(String.class);
  private static final String FAILOVER = "{ failureLimit: 3, retryAfter: 1s, timeout: 1s }";
  private static final String NEAR = "{ ttl: 10m, near: { maximumSize: 10000, ttl: 1m } }";

  /** A write B never sees within this long is a failure, not a figure. */
  private static final long NEVER_NANOS = 10_000_000_000L;

  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  private static InterceptedCache users(ShardedCacheManager manager) {
    return InterceptedCache.of(manager.cache("users"));
  }

  /** Reads until the key's value is served from B's near cache (at most 5 s). */
  private static void nearHit(InterceptedCache b, String key, String value) {
    Awaitility.await(key + " never served from the near cache")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(1))
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> {
              long before = b.stats().nearHitCount();
              Object got = b.getIfPresent(key, STRING);
              return value.equals(got) && b.stats().nearHitCount() > before;
            });
  }

  @Test
  void writeInAnotherJvm_reachesTheNearCacheWithinTheInvalidationsTrip() {
    int writes = Integer.getInteger("chash.near.writes", 10_000);
    try (ShardedCacheManager jvmA = fleet.manager(FAILOVER);
        ShardedCacheManager jvmB = fleet.managerWithUsers(FAILOVER, NEAR)) {
      InterceptedCache a = users(jvmA);
      InterceptedCache b = users(jvmB);
      String[] keys = new String[64];
      for (int k = 0; k < keys.length; k++) {
        keys[k] = a.routingKey("k" + k, "test");
        a.put(keys[k], "v0");
        nearHit(b, keys[k], "v0");
      }
      long[] delays = new long[writes];
      long staleReads = 0;
      for (int i = 0; i < writes; i++) {
        String key = keys[i % keys.length];
        String next = "v" + (i + 1);
        a.put(key, next);
        long completed = System.nanoTime();
        while (true) {
          Object got = b.getIfPresent(key, STRING);
          long now = System.nanoTime();
          if (next.equals(got)) {
            delays[i] = now - completed;
            break;
          }
          staleReads++;
          assertThat(now - completed)
              .as("write %d of %s never reached B", i, key)
              .isLessThan(NEVER_NANOS);
        }
        nearHit(b, key, next); // the next write replaces a value B serves from its near cache
      }
      Arrays.sort(delays);
      System.out.printf(
          "%n=== near cache, A writes, B reads: %d writes on 3 servers; B saw each new value"
              + " after p50 %.1f us, p99 %.1f us, max %.1f us; %d reads of the older value while"
              + " it travelled; B's near hits %d%n",
          writes,
          delays[writes / 2] / 1e3,
          delays[(int) (writes * 0.99)] / 1e3,
          delays[writes - 1] / 1e3,
          staleReads,
          b.stats().nearHitCount());
      assertThat(b.stats().nearHitCount()).isGreaterThanOrEqualTo(writes);
    }
  }

  @Test
  void trackingConnectionKilled_nothingOlderIsServedOnceTrackingIsBack() {
    try (ShardedCacheManager jvmA = fleet.manager(FAILOVER);
        ShardedCacheManager jvmB = fleet.managerWithUsers(FAILOVER, NEAR)) {
      InterceptedCache a = users(jvmA);
      InterceptedCache b = users(jvmB);
      List<String> keys = keysOn(a, jvmA, "r1", 50);
      for (String key : keys) {
        a.put(key, "old");
        nearHit(b, key, "old");
      }
      RedisServerProcess r1 = fleet.server("r1");
      String before = trackingClient(r1);
      r1.command("CLIENT", "KILL", "ADDR", before);
      for (String key : keys) {
        a.put(key, "new"); // B's channel to r1 is down: unreported
      }
      awaitNewTrackingClient(r1, before);

      List<Object> read = keys.stream().map(key -> b.getIfPresent(key, STRING)).toList();

      assertThat(read).as("what B reads once tracking is back").containsOnly("new");
    }
  }

  /**
   * Issue 40: two managers in one JVM (two Spring contexts). B's tracking connection is killed,
   * then A's put completes: B's next read must not be served the older value from its near cache,
   * as between processes, where the loss is reported before the put's reply.
   */
  @Test
  void oneJvm_killedTrackingConnection_notServedAfterTheOthersPut() {
    int rounds = 100;
    try (ShardedCacheManager jvmA = fleet.manager(FAILOVER);
        ShardedCacheManager jvmB = fleet.managerWithUsers(FAILOVER, NEAR)) {
      InterceptedCache a = users(jvmA);
      InterceptedCache b = users(jvmB);
      String key = keysOn(a, jvmA, "r1", 1).get(0);
      RedisServerProcess r1 = fleet.server("r1");
      List<String> stale = new ArrayList<>();
      for (int i = 0; i < rounds; i++) {
        a.put(key, "v" + i);
        nearHit(b, key, "v" + i);
        String before = trackingClient(r1);
        r1.command("CLIENT", "KILL", "ADDR", before);
        a.put(key, "v" + (i + 1));
        Object got = b.getIfPresent(key, STRING);
        if (!("v" + (i + 1)).equals(got)) {
          stale.add(i + ": " + got);
        }
        awaitNewTrackingClient(r1, before);
      }
      assertThat(stale).as("B's reads right after A's put, channel killed").isEmpty();
    }
  }

  @Test
  void serverRestarted_nothingOlderIsServedOnceTrackingIsBack() {
    try (ShardedCacheManager jvmA = fleet.manager(FAILOVER);
        ShardedCacheManager jvmB = fleet.managerWithUsers(FAILOVER, NEAR)) {
      InterceptedCache a = users(jvmA);
      InterceptedCache b = users(jvmB);
      List<String> keys = keysOn(a, jvmA, "r2", 50);
      for (String key : keys) {
        a.put(key, "old");
        nearHit(b, key, "old");
      }
      RedisServerProcess r2 = fleet.server("r2");
      String before = trackingClient(r2);
      r2.kill();
      r2.restart(); // empty, same port: B's near cache held "old" for each key
      awaitNewTrackingClient(r2, before);
      RedisFleet.connected(jvmB);

      List<Object> afterRestart = keys.stream().map(key -> b.getIfPresent(key, STRING)).toList();
      RedisFleet.connected(jvmA);
      keys.forEach(key -> a.put(key, "new"));
      List<Object> afterWrites = keys.stream().map(key -> b.getIfPresent(key, STRING)).toList();

      assertThat(afterRestart).as("what B reads from the emptied server").containsOnlyNulls();
      assertThat(afterWrites).as("what B reads after A's writes").containsOnly("new");
    }
  }

  /**
   * A server that stops answering without closing its connections (SIGSTOP stands for a network
   * partition that only the tracking connection sees): the heartbeat finds the silent channel and
   * reports it lost, so nothing read from that server is served past about two seconds; once the
   * server answers again, tracking is on again.
   */
  @Test
  void silentChannel_foundByTheHeartbeat_andArmedAgainOnceTheServerAnswers() {
    String fast = "{ failureLimit: 3, retryAfter: 1s, timeout: 100ms }"; // answer within 1 s
    try (ShardedCacheManager jvmB = fleet.managerWithUsers(fast, NEAR)) {
      awaitTracking(jvmB, "r3", true);
      RedisServerProcess r3 = fleet.server("r3");
      r3.pause();
      long frozen = System.nanoTime();
      try {
        awaitTracking(jvmB, "r3", false);
      } finally {
        r3.resume();
      }
      long noticed = System.nanoTime() - frozen;
      awaitTracking(jvmB, "r3", true);
      System.out.printf(
          "%n=== near cache: a frozen server's silent channel reported lost after %.0f ms%n",
          noticed / 1e6);
    }
  }

  /** Waits (at most 10 s) until the manager's channel to the node is on, or off. */
  private static void awaitTracking(ShardedCacheManager manager, String id, boolean on) {
    Awaitility.await("channel to " + id + " never " + (on ? "on" : "off"))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(5))
        .atMost(Duration.ofNanos(NEVER_NANOS))
        .until(() -> io.github.chash.cache.ManagerHooks.tracking(manager, id) == on);
  }

  @Test
  void oneJvm_noReadOlderThanAWriteCompletedBeforeIt() throws Exception {
    int keys = 16;
    WriteHistory history = new WriteHistory(keys);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong stale = new AtomicLong();
    AtomicLong reads = new AtomicLong();
    List<String> examples = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Throwable> thrown = java.util.Collections.synchronizedList(new ArrayList<>());
    try (ShardedCacheManager jvm = fleet.managerWithUsers(FAILOVER, NEAR)) {
      InterceptedCache users = users(jvm);
      String[] routing = new String[keys];
      for (int k = 0; k < keys; k++) {
        routing[k] = users.routingKey("k" + k, "test");
      }
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        threads.add(
            new Thread(
                () -> {
                  ThreadLocalRandom r = ThreadLocalRandom.current();
                  while (!stop.get()) {
                    int k = r.nextInt(keys);
                    try {
                      long v = history.begin(k);
                      if (r.nextInt(10) == 0) {
                        users.evict(routing[k]);
                      } else {
                        users.put(routing[k], k + "#" + v);
                      }
                      history.completed(k, v);
                    } catch (Throwable e) {
                      thrown.add(e);
                    }
                  }
                }));
        threads.add(
            new Thread(
                () -> {
                  ThreadLocalRandom r = ThreadLocalRandom.current();
                  while (!stop.get()) {
                    int k = r.nextInt(keys);
                    try {
                      long floor = history.floor(k);
                      Object got = users.getIfPresent(routing[k], STRING);
                      reads.incrementAndGet();
                      if (got != null) {
                        String s = (String) got;
                        long v = Long.parseLong(s.substring(s.indexOf('#') + 1));
                        if (history.isStale(k, v, floor)) {
                          stale.incrementAndGet();
                          if (examples.size() < 5) {
                            examples.add("k" + k + ": read v" + v + " " + history.describe(k, v));
                          }
                        }
                      }
                    } catch (Throwable e) {
                      thrown.add(e);
                    }
                  }
                }));
      }
      threads.forEach(Thread::start);
      try {
        Thread.sleep(Long.getLong("chash.near.millis", 5_000));
      } finally {
        stop.set(true);
        for (Thread t : threads) {
          t.join();
        }
      }
      System.out.printf(
          "%n=== near cache, one JVM, 3 writers and 3 readers on %d keys: %d reads, %d near hits,"
              + " stale %d %s%n",
          keys, reads.get(), users.stats().nearHitCount(), stale.get(), examples);
      assertThat(thrown).isEmpty();
      assertThat(stale.get()).as("reads older than a write completed before them").isZero();
      assertThat(users.stats().nearHitCount()).isPositive();
    }
  }

  /** {@code n} keys of the cache that the ring puts on node {@code id}. */
  private static List<String> keysOn(
      InterceptedCache cache, ShardedCacheManager m, String id, int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; keys.size() < n; i++) {
      String key = cache.routingKey("key-" + i, "test");
      if (m.ring().locate(key).id().equals(id)) {
        keys.add(key);
      }
    }
    return keys;
  }

  /**
   * The address (client side) of the server's one tracking connection, from {@code CLIENT LIST}:
   * unlike its id, never the same for a new connection to a restarted server.
   */
  private static String trackingClient(RedisServerProcess server) {
    return Awaitility.await("no tracking client on " + server)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              String list = (String) server.command("CLIENT", "LIST");
              for (String line : list.split("\n")) {
                if (line.contains(" name=chash-tracking ") && flags(line).contains("t")) {
                  return field(line, "addr");
                }
              }
              return null; // not yet
            },
            Objects::nonNull);
  }

  /** Waits until a tracking connection other than {@code before} is on (at most 10 s). */
  private static void awaitNewTrackingClient(RedisServerProcess server, String before) {
    Awaitility.await("tracking never came back on " + server)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .atMost(Duration.ofSeconds(10))
        .until(() -> !trackingClient(server).equals(before));
  }

  private static String flags(String clientLine) {
    return field(clientLine, "flags");
  }

  private static String field(String clientLine, String name) {
    for (String part : clientLine.split(" ")) {
      if (part.startsWith(name + "=")) {
        return part.substring(name.length() + 1);
      }
    }
    return "";
  }
}
