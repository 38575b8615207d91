package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.CheckedCallers;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.KeyLayout;
import io.github.chash.config.NodeConfig;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12 on real servers: a node added and removed every 500 ms under checked load (no stale
 * read, no exception), the loader calls after a node joins with and without warm migration (the
 * miss storm), and a node drained by removing it.
 */
class RedisMembershipIT {
  private static final Duration FLIP_RUN = Duration.ofSeconds(20);
  private static final int HOT_KEYS = 100_000;
  private static final ValueType STRING = ValueType.of(String.class);

  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(4);

  private static ChashConfig config(List<String> ids, String window, String timeout) {
    return config(ids, window, timeout, KeyLayout.PREFIXED);
  }

  private static ChashConfig config(
      List<String> ids, String window, String timeout, KeyLayout layout) {
    return ChashConfigs.parse(
        fleet.nodesYaml(ids)
            + "caches:\n  users: "
            + fleet.users(layout)
            + "\n"
            + "failover: { failureLimit: 3, retryAfter: 1s, timeout: "
            + timeout
            + " }\n"
            + "migration: { window: "
            + window
            + " }\n",
        "chash.yaml");
  }

  private static final List<String> THREE = List.of("r1", "r2", "r3");
  private static final List<String> FOUR = List.of("r1", "r2", "r3", "r4");

  @ParameterizedTest(name = "{0} keys")
  @EnumSource(KeyLayout.class)
  void flippingMembership_throughReconfigure_noStaleReadNoException(KeyLayout layout)
      throws Exception {
    flip(true, layout);
  }

  @ParameterizedTest(name = "{0} keys")
  @EnumSource(KeyLayout.class)
  void flippingMembership_throughAddAndRemoveNode_noStaleReadNoException(KeyLayout layout)
      throws Exception {
    flip(false, layout);
  }

  private static void flip(boolean wholeConfig, KeyLayout layout) throws Exception {
    ChashConfig three = config(THREE, "5m", "100ms", layout);
    ChashConfig four = config(FOUR, "5m", "100ms", layout);
    NodeConfig fourth = four.nodes().get(3);
    try (ShardedCacheManager manager = RedisFleet.connected(ShardedCaches.create(three))) {
      CheckedCallers callers =
          CheckedCallers.start(InterceptedCache.of(manager.cache("users")), 8, 50);
      long deadline = System.nanoTime() + FLIP_RUN.toNanos();
      int changes = 0;
      try {
        while (System.nanoTime() < deadline) {
          Thread.sleep(500);
          boolean add = changes % 2 == 0;
          if (wholeConfig) {
            manager.reconfigure(add ? four : three);
          } else if (add) {
            manager.addNode(fourth);
          } else {
            manager.removeNode("r4");
          }
          changes++;
        }
      } finally {
        callers.stop();
      }
      System.out.printf(
          "%n=== membership flip (%s, %s keys): %d changes in %d s, 8 threads, %d calls, %d hits,"
              + " %d migration hits, %d near hits, stale reads %d, caller exceptions %d, slowest"
              + " call %.1f ms%n",
          wholeConfig ? "reconfigure" : "addNode/removeNode",
          layout,
          changes,
          FLIP_RUN.toSeconds(),
          callers.calls(),
          callers.hits(),
          manager.cacheStats().get("users").migrationHitCount(),
          manager.cacheStats().get("users").nearHitCount(),
          callers.staleReads().size(),
          callers.exceptions().size(),
          callers.slowestNanos() / 1e6);
      assertThat(callers.exceptions()).as("exceptions that reached callers").isEmpty();
      assertThat(callers.staleReads()).as("reads older than the caller's last write").isEmpty();
      assertThat(callers.hits()).isPositive();
    }
  }

  @Test
  void nodeAdded_warmMigrationPreventsTheMissStorm() throws Exception {
    Storm cold = storm("0s", false);
    Storm warm = storm("5m", false);
    System.out.printf(
        "%n=== miss storm, 3 -> 4 nodes, %d hot keys: keys moved %d; loader calls in 30 s after"
            + " the change: without migration %d, with it %d%n"
            + "    loader calls per second from 3 s before the change (with / without):%n%s%n",
        HOT_KEYS, warm.moved, cold.loadsAfter, warm.loadsAfter, Storm.series(warm, cold));
    assertThat(cold.ejections + warm.ejections).as("node ejections during the storms").isZero();
    assertThat(cold.loadsAfter)
        .as("without migration every moved key loads")
        .isGreaterThan(cold.moved * 9 / 10);
    assertThat(warm.loadsAfter)
        .as("with migration, at most 1% of that")
        .isLessThanOrEqualTo(cold.moved / 100);
  }

  @Test
  void nodeRemoved_isDrained_itsKeysAreCopiedToTheirNewOwners() throws Exception {
    Storm drain = storm("5m", true);
    System.out.printf(
        "%n=== drain, 4 -> 3 nodes, %d hot keys: %d keys of r4, loader calls after removal %d%n",
        HOT_KEYS, drain.moved, drain.loadsAfter);
    assertThat(drain.ejections).as("node ejections during the drain").isZero();
    assertThat(drain.loadsAfter).isLessThanOrEqualTo(drain.moved / 100);
  }

  /** The loader calls per second around one change, under four threads reading hot keys. */
  /** One storm run; {@code ejections}: node ejections during it, whose flushes would load too. */
  private record Storm(long moved, long loadsAfter, long[] perSecond, long ejections) {
    static final int BEFORE = 3;
    static final int AFTER = 30;

    static String series(Storm with, Storm without) {
      StringBuilder out = new StringBuilder("    second  with  without\n");
      for (int s = 0; s < with.perSecond.length; s++) {
        out.append(
            String.format(
                "    %6d %5d %8d%n", s - BEFORE, with.perSecond[s], without.perSecond[s]));
      }
      return out.toString();
    }
  }

  private static Storm storm(String window, boolean remove) throws Exception {
    fleet.reset();
    // The storm measures migration, not failover: a timeout no loopback answer misses even on a
    // starved machine, so no node is ejected (and flushed, and reloaded) while it is measured.
    // With 100-500 ms, a loop on a machine at load average 15 ejected nodes and counted their
    // reloads as the migration's (51,576 loads with migration, 41,877 while draining).
    ChashConfig before = config(remove ? FOUR : THREE, window, "5s");
    ChashConfig after = config(remove ? THREE : FOUR, window, "5s");
    try (ShardedCacheManager manager = RedisFleet.connected(ShardedCaches.create(before))) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      TypedCache<Integer, String> typed = users.typed(Integer.class, String.class);
      List<String> keys = new ArrayList<>(HOT_KEYS);
      Map<Integer, String> batch = new LinkedHashMap<>();
      for (int i = 0; i < HOT_KEYS; i++) {
        keys.add(users.routingKey(i, "test"));
        batch.put(i, "v" + i);
        if (batch.size() == 1000) {
          typed.putAll(batch);
          batch.clear();
        }
      }
      long[] changedAt = {Long.MAX_VALUE};
      long startedAt = System.nanoTime();
      AtomicLongArray loadsPerSecond = new AtomicLongArray(Storm.BEFORE + Storm.AFTER + 5);
      AtomicBoolean running = new AtomicBoolean(true);
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int first = t;
        Thread reader =
            new Thread(
                () -> {
                  for (int i = first; running.get(); i = (i + 4) % HOT_KEYS) {
                    String key = keys.get(i);
                    int id = i;
                    try {
                      users.get(
                          key,
                          STRING,
                          () -> {
                            long second = (System.nanoTime() - startedAt) / 1_000_000_000L;
                            loadsPerSecond.incrementAndGet(
                                (int) Math.min(second, loadsPerSecond.length() - 1));
                            return "v" + id;
                          },
                          false,
                          false);
                    } catch (Throwable e) {
                      throw new AssertionError(e);
                    }
                  }
                },
                "hot-reader-" + t);
        readers.add(reader);
        reader.start();
      }
      Thread.sleep(Storm.BEFORE * 1000L);
      changedAt[0] = System.nanoTime();
      long changeSecond = (changedAt[0] - startedAt) / 1_000_000_000L;
      long moved = 0;
      var ringBefore = manager.ring();
      manager.reconfigure(after);
      for (String key : keys) {
        moved += ringBefore.locate(key).id().equals(manager.ring().locate(key).id()) ? 0 : 1;
      }
      Thread.sleep(Storm.AFTER * 1000L);
      running.set(false);
      for (Thread r : readers) {
        r.join(10_000);
      }
      long[] perSecond = new long[Storm.BEFORE + Storm.AFTER];
      long loadsAfter = 0;
      for (int s = 0; s < perSecond.length; s++) {
        int index = (int) (changeSecond - Storm.BEFORE + s);
        perSecond[s] =
            index >= 0 && index < loadsPerSecond.length() ? loadsPerSecond.get(index) : 0;
        if (s >= Storm.BEFORE) {
          loadsAfter += perSecond[s];
        }
      }
      long ejections =
          manager.nodeStats().values().stream().mapToLong(CacheStats::ejectionCount).sum();
      return new Storm(moved, loadsAfter, perSecond, ejections);
    }
  }
}
