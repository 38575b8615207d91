package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.ChashConfigs;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The cost of a lease on the miss path, on one real server: a miss through a loader is a read, a
 * lease, the load and a fill over the lease (three round trips on Redis; four on memcached, whose
 * text protocol's {@code add} returns no CAS unique, so the fill first reads it with a {@code
 * gets}); before the rules between JVMs it was a read and a plain set (two). Prints both, side by
 * side; asserts only what a user depends on (one load per key, then hits). One subclass per remote
 * node type.
 */
public abstract class LeaseCostScenario {
  private static final int KEYS = 5_000;

  /** {@return one server, started and emptied by the subclass's extension} */
  protected abstract LoopbackFleet<?> fleet();

  @Test
  void missThroughALoader_takesALease_loadsOnceThenHits() throws Exception {
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(
            ShardedCaches.create(
                ChashConfigs.parse(
                    fleet().nodesYaml()
                        + "caches:\n  users: { ttl: 10m }\n"
                        + "failover: { timeout: 500ms }\n",
                    "chash.yaml")))) {
      TypedCache<Object, String> cache = manager.cache("users").typed(String.class);
      CacheNode node = manager.node(fleet().nodeIds().get(0));
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
        node.get("users:plain" + i, ValueType.OBJECT); // a miss before: a read, then a set
        node.put("users:plain" + i, "v", Duration.ofMinutes(10));
        plain[i] = System.nanoTime() - t1;
      }
      assertThat(loads.get()).as("one load per key").isEqualTo(KEYS);
      for (int i = 0; i < KEYS; i++) {
        assertThat(cache.getIfPresent("k" + i)).as("filled over its lease").isNotNull();
      }
      Arrays.sort(miss);
      Arrays.sort(plain);
      System.out.printf(
          "%n=== miss through a loader on one %s, %d keys: with a lease p50 %.3f ms, p99 %.3f"
              + " ms; read + set alone (a miss before) p50 %.3f ms, p99 %.3f ms%n",
          getClass().getSimpleName(),
          KEYS,
          miss[KEYS / 2] / 1e6,
          miss[KEYS * 99 / 100] / 1e6,
          plain[KEYS / 2] / 1e6,
          plain[KEYS * 99 / 100] / 1e6);
    }
  }
}
