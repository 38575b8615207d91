package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Issue 40's eviction row, on real servers of any kind: servers at their memory limit evict during
 * a rolling ring change. Two managers stand for two JVMs of one service on the same servers: B
 * moves to a ring with one more node and reads every key (moving the moved ones there), A, still on
 * the old ring, then writes v2 of every key to the old owners, and the old owners evict under
 * memory pressure. Every read of B afterwards must return v2 or miss and load it: before the vouch
 * rule (operations.md, rule 7), B served the v1 it had moved itself wherever the old owner had
 * evicted v2. A subclass brings the servers and the way each kind evicts.
 */
public abstract class EvictionDuringChangeScenario {
  private static final int KEYS = 3_000;

  /** The servers: the last one joins the ring, the others are the old ring. */
  protected abstract LoopbackFleet<?> fleet();

  /**
   * Makes the server of {@code nodeId} evict as a production cache at its memory limit does, least
   * recently used first, about half of what chash stored there at the least; {@return how many
   * entries it evicted}
   */
  protected abstract long evictUnderMemoryPressure(String nodeId);

  private ChashConfig config(List<String> ids) {
    return ChashConfigs.parse(
        fleet().nodesYaml(ids)
            + "caches:\n  users: { ttl: 10m }\n"
            + "failover: { failureLimit: 3, retryAfter: 1s, timeout: 1s }\n"
            + "migration: { window: 5m }\n",
        "chash.yaml");
  }

  @RepeatedTest(5)
  void anOldOwnerEvictingTheOldRingsWrite_neverLetsTheNewRingServeItsOlderCopy() {
    List<String> all = fleet().nodeIds();
    List<String> old = all.subList(0, all.size() - 1);
    try (ShardedCacheManager a = LoopbackFleet.connected(ShardedCaches.create(config(old)));
        ShardedCacheManager b = LoopbackFleet.connected(ShardedCaches.create(config(old)))) {
      TypedCache<Object, String> inA = a.cache("users").typed(String.class);
      TypedCache<Object, String> inB = b.cache("users").typed(String.class);
      for (int k = 0; k < KEYS; k++) {
        inA.put("k" + k, "k" + k + "#1");
      }
      b.reconfigure(config(all));
      for (int k = 0; k < KEYS; k++) {
        assertThat(inB.getIfPresent("k" + k)).isEqualTo("k" + k + "#1");
      }
      long moved = b.cacheStats().get("users").migrationHitCount();
      assertThat(moved).as("keys B moved to the new node").isBetween(KEYS / 8L, KEYS / 2L);

      for (int k = 0; k < KEYS; k++) {
        inA.put("k" + k, "k" + k + "#2"); // completed before any read below begins
      }
      long evicted = 0;
      for (String id : old) {
        evicted += evictUnderMemoryPressure(id);
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
          "%n=== %s: %d keys, %d moved to the new node, %d evicted on the old owners; B's reads"
              + " after A's v2: %d stale, %d loads %s%n",
          getClass().getSimpleName(), KEYS, moved, evicted, stale, loads, examples);
      assertThat(evicted).as("entries the old owners evicted").isPositive();
      assertThat(stale).as("B's reads older than A's completed v2 %s", examples).isZero();
    }
  }
}
