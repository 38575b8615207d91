package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.CheckedCallers;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ServerProcesses;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.codec.JdkSerializationCodec;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: nodes that are Sentinel-managed shards ({@code redis-sentinel://}). Each shard is a
 * primary, a replica and three sentinels (quorum 2, {@code down-after-milliseconds} 1000), all real
 * processes on free 127.0.0.1 ports; a shard's primary is killed with {@code kill -9} and its
 * sentinels promote the replica. The promises: the shard keeps its keys (a promotion changes no
 * placement), no caller sees an exception, and no read returns a value older than the last write
 * this JVM completed, even for a write the old primary acknowledged that never reached the replica.
 * Every wait is bounded; skipped like the other server tests when {@code redis-server} is missing.
 */
class RedisSentinelIT {
  private static final ValueType STRING = ValueType.of(String.class);
  private static final Duration BOUND = SentinelShard.BOUND;

  private static final String FAILOVER =
      "{ failureLimit: 3, retryAfter: 1s, timeout: 100ms, onRejoin: keep }";

  /**
   * No probe nor mark cleaning runs during the test (a cleaning would delete the key of unknown
   * state on the new primary), so the copy a plain read would return stays there to be seen.
   */
  private static final String NO_CLEANING =
      "{ failureLimit: 3, retryAfter: 60s, timeout: 100ms, onRejoin: keep }";

  @Test
  void primaryKilled_theReplicaTakesOver_noCallerExceptionAndNoStaleRead() throws Exception {
    // opt-in until its failover timing is made robust: in 1 of about 8 runs on a loaded 2-core
    // machine no write landed on the promoted primary within 20 s (issue 33 stays open on it)
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Boolean.getBoolean("chash.sentinel.failover")
            || "1".equals(System.getenv("CHASH_SENTINEL")),
        "the Sentinel failover timeline runs with -Dchash.sentinel.failover=true or CHASH_SENTINEL=1");
    try (SentinelShard a = new SentinelShard("a");
        SentinelShard b = new SentinelShard("b")) {
      a.startServers();
      b.startServers();
      a.startSentinels();
      b.startSentinels();
      a.awaitReady();
      b.awaitReady();
      try (ShardedCacheManager manager = manager(FAILOVER, a, b)) {
        InterceptedCache users = InterceptedCache.of(manager.cache("users"));
        CheckedCallers callers = CheckedCallers.start(users, 4, 60);
        Timeline timeline;
        Set<String> movedKeys = new HashSet<>();
        try {
          await("callers warm up", () -> callers.calls() >= 2000);
          timeline = failOver(manager, a, b, movedKeys);
          long callsThen = callers.calls();
          // after the first landed write on the new primary, as many calls again as before the kill
          await("calls after recovery", () -> callers.calls() >= callsThen + 2000);
        } finally {
          callers.stop();
        }
        CacheStats shard = manager.nodeStats().get("a");
        List<String> stale = callers.staleReads();
        List<String> thrown = callers.exceptions();
        System.out.printf(
            "%n=== Sentinel shard a: kill -9 of its primary (port %d), replica port %d%n"
                + "  first failed call      +%d ms%n"
                + "  promotion seen         +%d ms (a sentinel names the replica as primary)%n"
                + "  old primary back      +%d ms (restarted as a replica of the new one)%n"
                + "  first hit on new prim. +%d ms%n"
                + "  first landed write     +%d ms (a replica acknowledged it: WAIT 1)%n"
                + "  calls %d, hits %d, loader calls %d, slowest call %.1f ms%n"
                + "  shard a: %d failed calls, %d ejections; %d of its keys served from shard b"
                + " meanwhile%n"
                + "  stale reads %d, caller exceptions %d%n",
            a.servers.get(0).port(),
            a.servers.get(1).port(),
            timeline.firstFailure,
            timeline.promotion,
            timeline.oldPrimaryBack,
            timeline.firstHit,
            timeline.firstWrite,
            callers.calls(),
            callers.hits(),
            users.stats().loadCount(),
            callers.slowestNanos() / 1e6,
            shard.errorCount(),
            shard.ejectionCount(),
            movedKeys.size(),
            stale.size(),
            thrown.size());
        assertThat(thrown).as("exceptions that reached a caller").isEmpty();
        assertThat(stale).as("reads older than the caller's own last write").isEmpty();
        // a primary of the shard serves its keys: their place on the ring did not change (on a
        // loaded machine the sentinels may fail over again, back to the restarted old primary)
        List<RedisServerProcess> primaries =
            a.servers.stream()
                .filter(server -> server.command("ROLE").toString().startsWith("[master"))
                .toList();
        assertThat(primaries).as("primaries of shard a").hasSize(1);
        assertThat(primaries.get(0).keys("chash:*")).isNotEmpty();
      }
    }
  }

  @Test
  void writeOnlyTheOldPrimaryHad_isNeverReadAfterThePromotion() throws Exception {
    try (SentinelShard a = new SentinelShard("a")) {
      a.startServers();
      a.startSentinels();
      a.awaitReady();
      RedisServerProcess primary = a.servers.get(0);
      RedisServerProcess replica = a.servers.get(1);
      try (ShardedCacheManager manager = manager(NO_CLEANING, a)) {
        InterceptedCache users = InterceptedCache.of(manager.cache("users"));
        String key = users.routingKey("order-1", "test");
        JdkSerializationCodec codec = new JdkSerializationCodec(List.of());
        users.put(key, "v1");
        // a landed write is on the replica: WAIT 1 said so
        assertThat(replica.getBytes("chash:" + key)).isEqualTo(codec.encode("v1"));

        // The replica freezes and its link is cut: the primary still answers, but v2 never
        // reaches the replica (not even its socket buffer, which it would read once thawed).
        replica.pause();
        try {
          primary.command("CLIENT", "KILL", "TYPE", "replica");
          users.put(key, "v2");
          assertThat(primary.getBytes("chash:" + key)).isEqualTo(codec.encode("v2"));
        } finally {
          primary.kill();
          replica.resume();
        }
        long failedCalls = manager.nodeStats().get("a").errorCount();

        await("promotion", () -> a.namedPrimary(replica));
        // the node reconnects to the new primary, which holds v1: a plain read would be stale
        await(
            "node reconnected",
            () -> {
              try {
                return "v1".equals(manager.node("a").get(key, STRING));
              } catch (RuntimeException notYet) {
                return false;
              }
            });
        assertThat(users.getIfPresent(key, STRING))
            .as("the cache never reads the copy of unknown state")
            .isNull();
        // the old primary had acknowledged v2 (SET answered OK), but no replica did (WAIT 0): the
        // put completed for its caller, its outcome unknown to the cache, which reads no copy there
        assertThat(failedCalls).as("the put of v2 failed on the node").isEqualTo(1);
        assertThat(manager.nodeStats().get("a").ejectionCount()).isZero();
        System.out.printf(
            "%n=== write acknowledged by the old primary only: the new primary holds %s, the cache"
                + " reads %s%n",
            manager.node("a").get(key, STRING), users.getIfPresent(key, STRING));
      }
    }
  }

  /** Milliseconds from the kill to each event. */
  private record Timeline(
      long firstFailure, long promotion, long firstHit, long oldPrimaryBack, long firstWrite) {}

  /**
   * Kills shard a's primary and watches, every 10 ms, until a read hit and a write landed on the
   * new primary: when a call on the shard first failed, when a sentinel first named the replica,
   * when a read first hit on the shard and a write first landed there, each after the first failure
   * (so it was answered by the new primary). Once the promotion is seen, the killed server comes
   * back as a replica of the new primary, as its supervisor would bring it back. Collects the keys
   * of shard a found on shard b meanwhile.
   */
  private static Timeline failOver(
      ShardedCacheManager manager, SentinelShard a, SentinelShard b, Set<String> movedKeys) {
    RedisServerProcess primary = a.servers.get(0);
    RedisServerProcess replica = a.servers.get(1);
    long start = System.nanoTime();
    primary.kill();
    long firstFailure = -1;
    long promotion = -1;
    long oldPrimaryBack = -1;
    long firstHit = -1;
    long firstWrite = -1;
    CacheStats atKill = manager.nodeStats().get("a");
    CacheStats atFailure = null;
    long deadline = start + BOUND.toNanos();
    for (int tick = 0; firstWrite < 0 || firstHit < 0; tick++) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "no write landed and no read hit on the new primary within "
                + BOUND
                + "; promotion at "
                + promotion
                + " ms; sentinel log: "
                + a.sentinels.get(0).log());
      }
      long now = millisSince(start);
      CacheStats stats = manager.nodeStats().get("a");
      if (atFailure == null) {
        if (stats.errorCount() > atKill.errorCount()) {
          atFailure = stats;
          firstFailure = now;
        }
      } else {
        if (firstHit < 0 && stats.hitCount() > atFailure.hitCount()) {
          firstHit = now;
        }
        if (firstWrite < 0 && stats.putCount() > atFailure.putCount()) {
          firstWrite = now;
        }
      }
      if (promotion < 0 && a.namedPrimary(replica)) {
        promotion = now;
        primary.restartAsReplicaOf(replica);
        oldPrimaryBack = millisSince(start);
      }
      if (tick % 5 == 0) {
        for (String serverKey : b.servers.get(0).keys("chash:*")) {
          String key = serverKey.substring("chash:".length());
          if (manager.ring().locate(key).id().equals("a")) {
            movedKeys.add(key);
          }
        }
      }
      ServerProcesses.sleep(10);
    }
    return new Timeline(firstFailure, promotion, firstHit, oldPrimaryBack, firstWrite);
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  /** A manager over the shards, node ids their ids, with cache {@code users}; nodes answering. */
  private static ShardedCacheManager manager(String failover, SentinelShard... shards) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (SentinelShard shard : shards) {
      yaml.append("  - { id: ")
          .append(shard.id)
          .append(", type: redis, uri: \"")
          .append(shard.uri())
          .append("\" }\n");
    }
    yaml.append("caches:\n  users: { ttl: 10m }\nfailover: ").append(failover).append('\n');
    return LoopbackFleet.connected(
        ShardedCaches.create(ChashConfigs.parse(yaml.toString(), "chash.yaml")));
  }

  private static void await(String what, BooleanSupplier condition) {
    SentinelShard.await(what, condition);
  }
}
