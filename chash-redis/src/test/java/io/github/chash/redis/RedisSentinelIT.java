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
import io.github.chash.config.FailoverConfig;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.codec.JdkSerializationCodec;
import io.github.chash.ring.Node;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 33: nodes that are Sentinel-managed shards ({@code redis-sentinel://}). Each shard is a
 * primary, a replica and three sentinels (quorum 2, {@code down-after-milliseconds} 1000), all real
 * processes on free 127.0.0.1 ports; a shard's primary is killed with {@code kill -9} and its
 * sentinels promote the replica. The promises: the shard keeps its keys (a promotion changes no
 * placement, and within {@code failover.promotionWait} the shard is not ejected, so none of its
 * keys is served by another shard), no caller sees an exception, and no read returns a value older
 * than the last write this JVM completed, even for a write the old primary acknowledged that never
 * reached the replica. A shard that stays down past {@code promotionWait} is ejected as any node.
 * Every wait is bounded; skipped like the other server tests when {@code redis-server} is missing.
 */
class RedisSentinelIT {
  private static final ValueType STRING = ValueType.of(String.class);
  private static final Duration BOUND = SentinelShard.BOUND;

  /** The default {@code promotionWait} (10 s) applies. */
  private static final String FAILOVER =
      "{ failureLimit: 3, retryAfter: 1s, timeout: 100ms, onRejoin: keep }";

  /** A short {@code promotionWait}, for a shard that does not come back; no probe meanwhile. */
  private static final String SHORT_WAIT =
      "{ failureLimit: 3, retryAfter: 60s, timeout: 100ms, onRejoin: keep, promotionWait: 2s }";

  /**
   * No probe nor mark cleaning runs during the test (a cleaning would delete the key of unknown
   * state on the new primary), so the copy a plain read would return stays there to be seen.
   */
  private static final String NO_CLEANING =
      "{ failureLimit: 3, retryAfter: 60s, timeout: 100ms, onRejoin: keep }";

  @Test
  void primaryKilled_theShardWaitsOutThePromotion_noKeyMovesNoCallerExceptionNoStaleRead()
      throws Exception {
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
        long loadsDuring;
        Set<String> movedKeys = new HashSet<>();
        try {
          await("callers warm up", () -> callers.calls() >= 2000);
          long loadsAtKill = users.stats().loadCount();
          timeline = failOver(manager, a, b, movedKeys);
          loadsDuring = users.stats().loadCount() - loadsAtKill;
          long callsThen = callers.calls();
          // after the first landed write on the new primary, as many calls again as before the kill
          await("calls after recovery", () -> callers.calls() >= callsThen + 2000);
        } finally {
          callers.stop();
        }
        collectMovedKeys(manager, b, movedKeys);
        CacheStats shard = manager.nodeStats().get("a");
        List<String> stale = callers.staleReads();
        List<String> thrown = callers.exceptions();
        System.out.printf(
            "%n=== Sentinel shard a: kill -9 of its primary (port %d), replica port %d,"
                + " promotionWait %s (the default)%n"
                + "  kill                   +0 ms%n"
                + "  first failed call      +%d ms%n"
                + "  promotion seen         +%d ms (a sentinel names the replica as primary)%n"
                + "  old primary back       +%d ms (restarted as a replica of the new one)%n"
                + "  last failed call seen  +%d ms (before the first hit and landed write)%n"
                + "  first hit on new prim. +%d ms (the first successful read there)%n"
                + "  first landed write     +%d ms (a replica acknowledged it, or no heir named)%n"
                + "  shard a: %d failed calls until then, %d in all; %d ejections; %d of its keys"
                + " served from shard b%n"
                + "  loader calls %d from the kill to the recovery, %d in all; calls %d, hits %d,"
                + " slowest call %.1f ms%n"
                + "  stale reads %d, caller exceptions %d; failovers in the sentinel's log %d%n",
            a.servers.get(0).port(),
            a.servers.get(1).port(),
            FailoverConfig.DEFAULT_PROMOTION_WAIT,
            timeline.firstFailure,
            timeline.promotion,
            timeline.oldPrimaryBack,
            timeline.lastFailure,
            timeline.firstHit,
            timeline.firstWrite,
            timeline.failedCalls,
            shard.errorCount(),
            shard.ejectionCount(),
            movedKeys.size(),
            loadsDuring,
            users.stats().loadCount(),
            callers.calls(),
            callers.hits(),
            callers.slowestNanos() / 1e6,
            stale.size(),
            thrown.size(),
            a.sentinels.get(0).log().split("\\+switch-master", -1).length - 1);
        assertThat(thrown).as("exceptions that reached a caller").isEmpty();
        assertThat(stale).as("reads older than the caller's own last write").isEmpty();
        assertThat(timeline.failedCalls)
            .as("calls on shard a failed while its primary was down")
            .isGreaterThan(3);
        assertThat(shard.ejectionCount())
            .as("ejections of shard a: its failures did not last promotionWait")
            .isZero();
        assertThat(movedKeys).as("keys of shard a served from shard b").isEmpty();
        // a primary of the shard serves its keys: their place on the ring did not change. On a
        // loaded machine the sentinels may fail over again, back to the restarted old primary, and
        // for a moment both servers say they are primaries: one is awaited.
        await("one primary of shard a", () -> primaries(a).size() == 1);
        assertThat(primaries(a).get(0).keys("chash:*")).isNotEmpty();
      }
    }
  }

  @Test
  void bothServersOfAShardKilled_itStaysDownPastPromotionWait_andIsEjected() throws Exception {
    try (SentinelShard a = new SentinelShard("a");
        SentinelShard b = new SentinelShard("b")) {
      a.startServers();
      b.startServers();
      a.startSentinels();
      b.startSentinels();
      a.awaitReady();
      b.awaitReady();
      try (ShardedCacheManager manager = manager(SHORT_WAIT, a, b)) {
        InterceptedCache users = InterceptedCache.of(manager.cache("users"));
        CheckedCallers callers = CheckedCallers.start(users, 4, 60);
        Set<String> movedKeys = new HashSet<>();
        long firstFailure = -1;
        long ejection;
        long failedBeforeEjection;
        long movedSeen;
        try {
          await("callers warm up", () -> callers.calls() >= 2000);
          CacheStats atKill = manager.nodeStats().get("a");
          long start = System.nanoTime();
          // no server of the shard is left for its sentinels to promote
          a.servers.forEach(RedisServerProcess::kill);
          long deadline = start + BOUND.toNanos();
          while (true) {
            CacheStats stats = manager.nodeStats().get("a");
            if (firstFailure < 0 && stats.errorCount() > atKill.errorCount()) {
              firstFailure = millisSince(start);
            }
            if (stats.ejectionCount() > atKill.ejectionCount()) {
              ejection = millisSince(start);
              failedBeforeEjection = stats.errorCount() - atKill.errorCount();
              break;
            }
            if (System.nanoTime() > deadline) {
              throw new AssertionError("shard a not ejected within " + BOUND);
            }
            ServerProcesses.sleep(10);
          }
          await(
              "keys of shard a written to shard b",
              () -> {
                collectMovedKeys(manager, b, movedKeys);
                return !movedKeys.isEmpty();
              });
          movedSeen = millisSince(start);
          long callsThen = callers.calls();
          await("calls after the ejection", () -> callers.calls() >= callsThen + 2000);
        } finally {
          callers.stop();
        }
        CacheStats shard = manager.nodeStats().get("a");
        List<String> stale = callers.staleReads();
        List<String> thrown = callers.exceptions();
        System.out.printf(
            "%n=== Sentinel shard a: kill -9 of its primary and its replica, promotionWait 2s%n"
                + "  kill                     +0 ms%n"
                + "  first failed call        +%d ms%n"
                + "  ejected                  +%d ms, after %d failed calls%n"
                + "  its keys on shard b      +%d ms (%d keys seen)%n"
                + "  shard a: %d failed calls in all, %d ejections%n"
                + "  calls %d, hits %d, loader calls %d, slowest call %.1f ms%n"
                + "  stale reads %d, caller exceptions %d%n",
            firstFailure,
            ejection,
            failedBeforeEjection,
            movedSeen,
            movedKeys.size(),
            shard.errorCount(),
            shard.ejectionCount(),
            callers.calls(),
            callers.hits(),
            users.stats().loadCount(),
            callers.slowestNanos() / 1e6,
            stale.size(),
            thrown.size());
        assertThat(thrown).as("exceptions that reached a caller").isEmpty();
        assertThat(stale).as("reads older than the caller's own last write").isEmpty();
        assertThat(shard.ejectionCount()).isEqualTo(1);
        assertThat(manager.liveRing().nodes()).extracting(Node::id).containsExactly("b");
        assertThat(failedBeforeEjection).isGreaterThanOrEqualTo(3);
      }
    }
  }

  /**
   * Issue 40: a supervisor restarts the shard's primary from its RDB file, older than the writes it
   * acknowledged, before the sentinels' {@code down-after}; its replica resyncs to that older data.
   * Before the server incarnation ({@code ServerIncarnation}) 760-1,007 reads were stale. Now a
   * read is the last write or a miss, whether or not the sentinels promoted the replica meanwhile
   * (on a loaded machine the restart may outlast {@code down-after}): the promoted replica has
   * every write a replica acknowledged, and continues the primary's history.
   */
  @Test
  void primaryRestartedFromAnOlderSnapshot_servesNothingItRestored() {
    try (SentinelShard a = SentinelShard.started("a")) {
      RedisServerProcess primary = a.servers.get(0);
      try (ShardedCacheManager manager = manager(NO_CLEANING, a)) {
        InterceptedCache users = InterceptedCache.of(manager.cache("users"));
        a.awaitHeirNamed(); // the restored record names the replica: still no heir of the restart
        List<String> keys = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
          keys.add(users.routingKey(i, "test"));
        }
        keys.forEach(k -> users.put(k, "v1"));
        primary.command("SAVE");
        keys.forEach(k -> users.put(k, "v2"));

        primary.kill();
        primary.restart();
        LoopbackFleet.connected(manager);
        boolean promoted = !a.namedPrimary(primary);

        int stale = 0;
        int hits = 0;
        for (int round = 0; round < 2; round++) {
          for (String key : keys) {
            Object got = users.getIfPresent(key, STRING);
            assertThat(got).as(key).isIn("v1", "v2", null);
            stale += "v1".equals(got) ? 1 : 0;
            hits += "v2".equals(got) ? 1 : 0;
          }
        }
        System.out.printf(
            "%n=== Sentinel shard a: primary restarted from an older RDB (%s): %d stale reads,"
                + " %d hits of 200%n",
            promoted ? "the replica was promoted meanwhile" : "no promotion", stale, hits);
        assertThat(stale).as("reads of v1, which the restarted primary restored").isZero();
      }
    }
  }

  /**
   * Issue 42: the most common Sentinel shard, a primary and one replica, under 4 threads of checked
   * calls, the default {@code promotionWait}; its primary is killed, and either stays dead or is
   * restarted at once by a supervisor (as a primary: Sentinel makes it a replica some seconds
   * later). The promoted replica is an heir of the record, so it keeps the shard's entries; with no
   * replica left the record names no heir, so writes land on it alone at once (no {@code WAIT} to
   * fail), and the shard is never ejected. Once the restarted old primary is a replica again it is
   * named an heir, and a second failover keeps the entries written since.
   */
  @ParameterizedTest(name = "old primary restarted by a supervisor: {0}")
  @ValueSource(booleans = {false, true})
  void oneReplica_primaryKilled_thePromotedHeirKeepsTheEntriesAndTakesWritesAtOnce(
      boolean supervised) throws Exception {
    try (SentinelShard a = SentinelShard.started("a")) {
      RedisServerProcess primary = a.servers.get(0);
      RedisServerProcess replica = a.servers.get(1);
      try (ShardedCacheManager manager = manager(FAILOVER, a)) {
        InterceptedCache users = InterceptedCache.of(manager.cache("users"));
        a.awaitHeirNamed();
        List<String> kept = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
          kept.add(users.routingKey(i, "kept"));
        }
        kept.forEach(k -> users.put(k, "v1"));
        CheckedCallers callers = CheckedCallers.start(users, 4, 60);
        long promotion;
        long firstHit = -1;
        long firstWrite = -1;
        long oldPrimaryBack = -1;
        try {
          await("callers warm up", () -> callers.calls() >= 2000);
          long start = System.nanoTime();
          primary.kill();
          await("promotion", () -> a.namedPrimary(replica));
          promotion = millisSince(start);
          if (supervised) {
            primary.restart();
            oldPrimaryBack = millisSince(start);
          }
          long deadline = start + BOUND.toNanos();
          for (int tick = 0; firstHit < 0 || firstWrite < 0; tick++) {
            assertThat(System.nanoTime())
                .as("a hit and a landed write within " + BOUND)
                .isLessThan(deadline);
            if (firstHit < 0 && "v1".equals(users.getIfPresent(kept.get(tick % 200), STRING))) {
              firstHit = millisSince(start);
            }
            if (firstWrite < 0 && landed(manager, "probe-" + tick)) {
              firstWrite = millisSince(start);
            }
            ServerProcesses.sleep(10);
          }
          long callsThen = callers.calls();
          await("calls after recovery", () -> callers.calls() >= callsThen + 2000);
        } finally {
          callers.stop();
        }
        CacheStats shard = manager.nodeStats().get("a");
        long keptHits =
            kept.stream().filter(k -> "v1".equals(users.getIfPresent(k, STRING))).count();
        System.out.printf(
            "%n=== one-replica shard a, kill -9 of its primary, %s, promotionWait %s%n"
                + "  promotion seen +%d ms; old primary restarted +%d ms%n"
                + "  first hit of a key written before the kill +%d ms (%d ms after the promotion)%n"
                + "  first landed write on the promoted primary +%d ms%n"
                + "  keys written before the kill still hits: %d of %d; ejections %d; failed calls %d%n"
                + "  calls %d, stale reads %d, caller exceptions %d%n",
            supervised ? "restarted by a supervisor at once" : "not restarted",
            FailoverConfig.DEFAULT_PROMOTION_WAIT,
            promotion,
            oldPrimaryBack,
            firstHit,
            firstHit - promotion,
            firstWrite,
            keptHits,
            kept.size(),
            shard.ejectionCount(),
            shard.errorCount(),
            callers.calls(),
            callers.staleReads().size(),
            callers.exceptions().size());
        assertThat(callers.exceptions()).as("exceptions that reached a caller").isEmpty();
        assertThat(callers.staleReads()).as("stale reads").isEmpty();
        assertThat(shard.ejectionCount()).as("ejections of shard a").isZero();
        assertThat(keptHits).as("keys written before the kill, read from the heir").isEqualTo(200);
        if (supervised) {
          secondFailover(a, users);
        }
      }
    }
  }

  /**
   * Once the shard is again a primary and a replica in sync that the primary's record names an heir
   * (the restarted old primary; or, if the sentinels failed over to it meanwhile, as they may on a
   * loaded machine with a 1 s {@code down-after}, the other), keys are written, the primary is
   * killed, and the heir, promoted in turn, still serves every one of them.
   */
  private static void secondFailover(SentinelShard a, InterceptedCache users) {
    long start = System.nanoTime();
    RedisServerProcess[] primaryAndHeir = new RedisServerProcess[2];
    // Sentinel makes the restarted server a replica some 10-15 s after it is back, then it syncs:
    // a bound of its own, longer than the others'
    Awaitility.await("a primary whose record names its replica an heir")
        .pollInterval(Duration.ofMillis(50))
        .atMost(Duration.ofSeconds(90))
        .ignoreExceptions() // a server between roles, or down for a moment
        .until(
            () -> {
              for (RedisServerProcess primary : a.servers) {
                RedisServerProcess replica =
                    a.servers.get(0) == primary ? a.servers.get(1) : a.servers.get(0);
                byte[] record = primary.getBytes("chash:incarnation");
                if (a.namedPrimary(primary)
                    && record != null
                    && new String(record, java.nio.charset.StandardCharsets.US_ASCII)
                        .contains(runId(replica) + "@")
                    && replica
                        .command("INFO", "replication")
                        .toString()
                        .contains("master_link_status:up")) {
                  primaryAndHeir[0] = primary;
                  primaryAndHeir[1] = replica;
                  return true;
                }
              }
              return false;
            });
    long named = millisSince(start);
    List<String> again = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      again.add(users.routingKey(i, "again"));
    }
    // a put that found no replica's acknowledgement in time failed (its key unknown): put again
    await(
        "the keys written on the primary",
        () -> {
          again.stream()
              .filter(k -> !"v2".equals(users.getIfPresent(k, STRING)))
              .forEach(k -> users.put(k, "v2"));
          return again.stream().allMatch(k -> "v2".equals(users.getIfPresent(k, STRING)));
        });
    primaryAndHeir[0].kill();
    await("the heir promoted", () -> a.namedPrimary(primaryAndHeir[1]));
    await("a hit on the heir", () -> "v2".equals(users.getIfPresent(again.get(0), STRING)));
    long keptHits = again.stream().filter(k -> "v2".equals(users.getIfPresent(k, STRING))).count();
    System.out.printf(
        "  a replica named an heir %d ms after the first recovery (the %s); after a second"
            + " failover, to it, %d of %d keys written before it are hits%n",
        named,
        primaryAndHeir[1] == a.servers.get(0) ? "restarted old primary" : "first promoted one",
        keptHits,
        again.size());
    assertThat(keptHits).as("keys kept through the second failover").isEqualTo(again.size());
  }

  private static String runId(RedisServerProcess server) {
    return server.command("INFO", "server").toString().replaceAll("(?s).*run_id:(\\w+).*", "$1");
  }

  /** Whether a put straight to node a lands: a replica has it, or the record names no heir. */
  private static boolean landed(ShardedCacheManager manager, String key) {
    try {
      manager.node("a").put("users:" + key, "w", Duration.ofMinutes(1));
      return true;
    } catch (RuntimeException notYet) {
      return false;
    }
  }

  @Test
  void writeOnlyTheOldPrimaryHad_isNeverReadAfterThePromotion() throws Exception {
    try (SentinelShard a = SentinelShard.started("a")) {
      RedisServerProcess primary = a.servers.get(0);
      RedisServerProcess replica = a.servers.get(1);
      try (ShardedCacheManager manager = manager(NO_CLEANING, a)) {
        InterceptedCache users = InterceptedCache.of(manager.cache("users"));
        String key = users.routingKey("order-1", "test");
        JdkSerializationCodec codec = new JdkSerializationCodec(List.of());
        a.awaitHeirNamed();
        users.put(key, "v1");
        // a landed write is on the replica: WAIT 1 said so
        assertThat(replica.getEntry("chash:" + key)).isEqualTo(codec.encode("v1"));

        // The replica freezes and its link is cut: the primary still answers, but v2 never
        // reaches the replica (not even its socket buffer, which it would read once thawed).
        replica.pause();
        try {
          primary.command("CLIENT", "KILL", "TYPE", "replica");
          users.put(key, "v2");
          assertThat(primary.getEntry("chash:" + key)).isEqualTo(codec.encode("v2"));
        } finally {
          primary.kill();
          replica.resume();
        }
        long failedCalls = manager.nodeStats().get("a").errorCount();

        await("promotion", () -> a.namedPrimary(replica));
        // the node reconnects to the new primary, which holds v1 under the old primary's tag and
        // keeps it: the record named the replica an heir (ServerIncarnation), so the node reads v1
        await(
            "node reconnected",
            () -> {
              try {
                manager.node("a").get(key, STRING);
                return true;
              } catch (RuntimeException notYet) {
                return false;
              }
            });
        assertThat(replica.getBytes("chash:" + key)).as("v1 is on the new primary").isNotNull();
        assertThat(manager.node("a").get(key, STRING)).as("the heir's entry").isEqualTo("v1");
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

  /**
   * Milliseconds from the kill to each event; and the calls on the shard that failed from the kill
   * to the first hit and landed write.
   */
  private record Timeline(
      long firstFailure,
      long promotion,
      long firstHit,
      long oldPrimaryBack,
      long firstWrite,
      long lastFailure,
      long failedCalls) {}

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
    long lastFailure = -1;
    CacheStats atKill = manager.nodeStats().get("a");
    long errors = atKill.errorCount();
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
      if (stats.errorCount() > errors) {
        errors = stats.errorCount();
        lastFailure = now;
      }
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
        collectMovedKeys(manager, b, movedKeys);
      }
      ServerProcesses.sleep(10);
    }
    return new Timeline(
        firstFailure,
        promotion,
        firstHit,
        oldPrimaryBack,
        firstWrite,
        lastFailure,
        errors - atKill.errorCount());
  }

  /** The servers of the shard that say they are a primary. */
  private static List<RedisServerProcess> primaries(SentinelShard shard) {
    return shard.servers.stream()
        .filter(server -> server.command("ROLE").toString().startsWith("[master"))
        .toList();
  }

  /** Adds the keys whose home is shard a that shard b's primary holds. */
  private static void collectMovedKeys(
      ShardedCacheManager manager, SentinelShard b, Set<String> movedKeys) {
    for (String serverKey : b.servers.get(0).keys("chash:*")) {
      String key = serverKey.substring("chash:".length());
      if (manager.ring().locate(key).id().equals("a")) {
        movedKeys.add(key);
      }
    }
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
