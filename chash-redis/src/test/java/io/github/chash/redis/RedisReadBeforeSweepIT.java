package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ManagerHooks;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fleet simulation seed 81568 on real servers (issues 40 and 41): a JVM on the new ring fills a
 * moved key on its new home; a JVM still on the old ring evicts it, which leaves a tombstone on the
 * key's previous owner. The new ring's window ends, and the new JVM's sweep, which would delete the
 * home's older copy for that tombstone, has not run yet. A read then must still consult the
 * previous owner and miss; stopping at the window's end, it served the home's copy, older than the
 * evict. Both JVMs run on clocks the test moves, so the gap between the window's end and the sweep
 * is exact.
 */
class RedisReadBeforeSweepIT {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(4);

  private static final Duration WINDOW = Duration.ofMinutes(1);

  private static ChashConfig config(List<String> ids) {
    return ChashConfigs.parse(
        fleet.nodesYaml(ids)
            + "caches:\n  users: { ttl: 10m }\n"
            + "migration: { window: "
            + WINDOW.toSeconds()
            + "s }\n",
        "chash.yaml");
  }

  @Test
  void aReadAfterTheWindowBeforeTheSweep_stillMeetsAnOlderRingsEvict() throws Throwable {
    ChashConfig three = config(List.of("r1", "r2", "r3"));
    ChashConfig four = config(List.of("r1", "r2", "r3", "r4"));
    ManagerHooks.Clock newClock = new ManagerHooks.Clock();
    ManagerHooks.Clock oldClock = new ManagerHooks.Clock();
    try (ShardedCacheManager newJvm = ManagerHooks.manualManager(three, newClock);
        ShardedCacheManager oldJvm = ManagerHooks.manualManager(three, oldClock)) {
      InterceptedCache onNew = InterceptedCache.of(newJvm.cache("users"));
      InterceptedCache onOld = InterceptedCache.of(oldJvm.cache("users"));
      String key = movedToR4(onNew, three, four);
      newJvm.reconfigure(four);
      assertThat(onNew.get(key, ValueType.OBJECT, () -> "v1", true, false)).isEqualTo("v1");

      onOld.evict(key); // the old ring's evict: a tombstone on the previous owner
      newClock.advance(WINDOW.plusSeconds(1)); // the window is over; no sweep yet

      assertThat(onNew.getIfPresent(key, ValueType.OBJECT))
          .as("a read of %s after the window, before the sweep", key)
          .isNull();
      ManagerHooks.sweep(newJvm);
      assertThat(onNew.getIfPresent(key, ValueType.OBJECT)).as("after the sweep").isNull();
      assertThat(onNew.get(key, ValueType.OBJECT, () -> "v2", true, false)).isEqualTo("v2");
    }
  }

  /** A routing key that three nodes place off r4 and four nodes on r4. */
  private static String movedToR4(InterceptedCache cache, ChashConfig three, ChashConfig four) {
    for (int i = 0; i < 100_000; i++) {
      String key = cache.routingKey("key-" + i, "test");
      if (RedisFleet.owner(four, key).equals("r4")) {
        return key;
      }
    }
    throw new AssertionError("no key moves to r4 among 100,000");
  }
}
