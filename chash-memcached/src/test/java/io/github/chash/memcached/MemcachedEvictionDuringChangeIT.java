package io.github.chash.memcached;

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
 * Issue 40's eviction row on real memcached servers at their memory limit: two managers stand for
 * two JVMs of one service. B moves to a ring with a 4th node and reads every key (moving the moved
 * ones there), A, still on the old ring, then writes v2 of every key to the old owners, and the old
 * owners evict under memory pressure (their limit lowered with {@code cache_memlimit}, then junk of
 * the entries' slab class written past it). Every read of B afterwards must return v2 or miss and
 * load it: before the vouch rule, B served the v1 it had moved itself wherever v2 was evicted (565
 * and 580 of 812 moved keys with {@code -m 2}).
 */
class MemcachedEvictionDuringChangeIT {
  private static final int KEYS = 3_000;

  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(4);

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
    List<String> old = List.of("m1", "m2", "m3");
    try (ShardedCacheManager a = MemcachedFleet.connected(ShardedCaches.create(config(old)));
        ShardedCacheManager b = MemcachedFleet.connected(ShardedCaches.create(config(old)))) {
      TypedCache<Object, String> inA = a.cache("users").typed(String.class);
      TypedCache<Object, String> inB = b.cache("users").typed(String.class);
      for (int k = 0; k < KEYS; k++) {
        inA.put("k" + k, "k" + k + "#1");
      }
      b.reconfigure(config(List.of("m1", "m2", "m3", "m4")));
      for (int k = 0; k < KEYS; k++) {
        assertThat(inB.getIfPresent("k" + k)).isEqualTo("k" + k + "#1");
      }
      long moved = b.cacheStats().get("users").migrationHitCount();
      assertThat(moved).as("keys B moved to m4").isBetween((long) KEYS / 8, (long) KEYS / 2);

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
          "%n=== memcached eviction during a change: %d keys, %d moved to m4, %d evicted on the"
              + " old owners; B's reads after A's v2: %d stale, %d loads %s%n",
          KEYS, moved, evicted, stale, loads, examples);
      assertThat(evicted).as("items the old owners evicted").isPositive();
      assertThat(stale).as("B's reads older than A's completed v2 %s", examples).isZero();
    }
  }

  /**
   * Lowers the server's memory limit to 8 MB (the least memcached takes) and writes junk of the
   * size of its chash items past it, so that it evicts the least recently used items of their slab
   * class; {@return how many items it evicted}
   */
  private static long evictUnderMemoryPressure(MemcachedServerProcess server) {
    byte[] sample = null;
    String sampleKey = null;
    for (int k = 0; sample == null && k < KEYS; k++) {
      sampleKey = "chash:users:k" + k;
      sample = server.getBytes(sampleKey);
    }
    assertThat(sample).as("a chash item on port %d", server.port()).isNotNull();
    long before = server.stat("evictions");
    assertThat(server.line("cache_memlimit 8")).isEqualTo("OK");
    // junk in steps until the server has evicted about half its chash items (about 1,000 each);
    // the pages the class already holds decide how many it takes
    for (int step = 0; step < 200 && server.stat("evictions") - before < KEYS / 6; step++) {
      server.fillWithJunk(step, 500, sampleKey.length(), sample.length);
    }
    assertThat(server.line("cache_memlimit 64")).isEqualTo("OK");
    return server.stat("evictions") - before;
  }
}
