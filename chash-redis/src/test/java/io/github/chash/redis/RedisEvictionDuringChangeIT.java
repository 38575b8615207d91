package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 40's eviction row on real servers: servers bounded by {@code maxmemory} with {@code
 * allkeys-lru}, as the docs tell users to run them, evict during a rolling ring change. Two
 * managers stand for two JVMs of one service on the same servers: B moves to a ring with a 4th node
 * and reads every key (moving the moved ones there), A, still on the old ring, then writes v2 of
 * every key to the old owners, and the old owners evict under memory pressure. Every read of B
 * afterwards must return v2 (or miss and load it): before the vouch rule, B served the v1 it had
 * moved itself wherever the old owner had evicted v2 (787-802 of 812 moved keys).
 */
class RedisEvictionDuringChangeIT {
  private static final int KEYS = 3_000;

  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(4);

  private static ChashConfig config(List<String> ids) {
    return ChashConfigs.parse(
        fleet.nodesYaml(ids)
            + "caches:\n  users: { ttl: 10m }\n"
            + "failover: { failureLimit: 3, retryAfter: 1s, timeout: 1s }\n"
            + "migration: { window: 5m }\n",
        "chash.yaml");
  }

  @RepeatedTest(5)
  void anOldOwnerEvictingTheOldRingsWrite_neverLetsTheNewRingServeItsOlderCopy() {
    List<String> old = List.of("r1", "r2", "r3");
    try (ShardedCacheManager a = RedisFleet.connected(ShardedCaches.create(config(old)));
        ShardedCacheManager b = RedisFleet.connected(ShardedCaches.create(config(old)))) {
      TypedCache<Object, String> inA = a.cache("users").typed(String.class);
      TypedCache<Object, String> inB = b.cache("users").typed(String.class);
      for (int k = 0; k < KEYS; k++) {
        inA.put("k" + k, "k" + k + "#1");
      }
      b.reconfigure(config(List.of("r1", "r2", "r3", "r4")));
      for (int k = 0; k < KEYS; k++) {
        assertThat(inB.getIfPresent("k" + k)).isEqualTo("k" + k + "#1");
      }
      int moved = fleet.server("r4").keys("*").size();
      assertThat(moved).as("keys B moved to r4").isBetween(KEYS / 8, KEYS / 2);

      for (int k = 0; k < KEYS; k++) {
        inA.put("k" + k, "k" + k + "#2"); // completed before any read below begins
      }
      long evicted = 0;
      for (String id : old) {
        evicted += evictUnderMemoryPressure(fleet.server(id));
      }

      int stale = 0;
      int loads = 0;
      List<String> examples = new ArrayList<>();
      for (int k = 0; k < KEYS; k++) {
        int key = k;
        int[] loaded = {0};
        String got =
            inB.get(
                "k" + k,
                any -> {
                  loaded[0]++;
                  return "k" + key + "#2";
                });
        loads += loaded[0];
        if (!got.equals("k" + k + "#2")) {
          stale++;
          if (examples.size() < 5) examples.add("k" + k + " read " + got);
        }
      }
      System.out.printf(
          "%n=== eviction during a change: %d keys, %d moved to r4, %d evicted on the old owners;"
              + " B's reads after A's v2: %d stale, %d loads %s%n",
          KEYS, moved, evicted, stale, loads, examples);
      assertThat(evicted).as("entries the old owners evicted").isPositive();
      assertThat(stale).as("B's reads older than A's completed v2 %s", examples).isZero();
    }
  }

  /**
   * Bounds the server's memory a little above what it uses and writes junk past the bound with
   * {@code allkeys-lru}, so that it evicts as a production cache at its limit does, least recently
   * used first; {@return how many keys it evicted}
   */
  private static long evictUnderMemoryPressure(RedisServerProcess server) {
    long used = infoField(server, "memory", "used_memory");
    long before = infoField(server, "stats", "evicted_keys");
    server.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
    server.command("CONFIG", "SET", "maxmemory", Long.toString(used + 512 * 1024));
    for (int batch = 0; batch < 6; batch++) {
      server.command(
          "EVAL",
          "for i = 1, 500 do redis.call('SET', 'junk:' .. ARGV[1] .. ':' .. i, string.rep('x', 200))"
              + " end return 1",
          "0",
          Integer.toString(batch));
    }
    server.command("CONFIG", "SET", "maxmemory", "0");
    return infoField(server, "stats", "evicted_keys") - before;
  }

  private static long infoField(RedisServerProcess server, String section, String field) {
    for (String line : ((String) server.command("INFO", section)).split("\r\n")) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.substring(field.length() + 1).trim());
      }
    }
    throw new IllegalStateException("INFO " + section + " has no " + field);
  }
}
