package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfigs;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cost of a lease on the miss path, on one real memcached server: a miss through a loader is a
 * read, a lease (an {@code add}), the load and a fill over the lease (a {@code gets} for the
 * lease's CAS unique, then a {@code cas}: the text protocol's {@code add} returns no unique), four
 * round trips; before the rules between JVMs it was a read and a plain {@code set} (two). Prints
 * both; asserts only what a user depends on (one load per key, then hits).
 */
class MemcachedLeaseCostIT {
  private static final int KEYS = 5_000;

  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(1);

  @Test
  void missThroughALoader_takesALease_loadsOnceThenHits() throws Exception {
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(
            ShardedCaches.create(
                ChashConfigs.parse(
                    fleet.nodesYaml()
                        + "caches:\n  users: { ttl: 10m }\n"
                        + "failover: { timeout: 500ms }\n",
                    "chash.yaml")))) {
      TypedCache<Object, String> cache = manager.cache("users").typed(String.class);
      CacheNode node = manager.node("m1");
      AtomicInteger loads = new AtomicInteger();
      for (int i = 0; i < 2_000; i++) { // warm-up: JIT, connections
        cache.get("warm" + i, k -> "v");
        node.get("users:warm" + i, ValueType.OBJECT);
        node.put("users:plain-warm" + i, "v", Duration.ofMinutes(10));
      }
      long[] miss = new long[KEYS];
      long[] plain = new long[KEYS];
      for (int i = 0; i < KEYS; i++) {
        String key = "k" + i;
        long t0 = System.nanoTime();
        String got = cache.get(key, k -> "v" + loads.incrementAndGet());
        miss[i] = System.nanoTime() - t0;
        assertThat(got).startsWith("v");
        long t1 = System.nanoTime();
        node.get("users:plain" + i, ValueType.OBJECT); // a miss before: get, then set
        node.put("users:plain" + i, "v", Duration.ofMinutes(10));
        plain[i] = System.nanoTime() - t1;
      }
      assertThat(loads.get()).as("one load per key").isEqualTo(KEYS);
      for (int i = 0; i < KEYS; i++) {
        assertThat(cache.get("k" + i)).as("filled over its lease").isNotNull();
      }
      Arrays.sort(miss);
      Arrays.sort(plain);
      System.out.printf(
          "%n=== miss through a loader on one memcached, %d keys: with a lease p50 %.3f ms, p99 %.3f"
              + " ms; get + set alone (a miss before) p50 %.3f ms, p99 %.3f ms%n",
          KEYS,
          miss[KEYS / 2] / 1e6,
          miss[KEYS * 99 / 100] / 1e6,
          plain[KEYS / 2] / 1e6,
          plain[KEYS * 99 / 100] / 1e6);
    }
  }
}
