package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.HookedNode;
import io.github.chash.cache.ManagerHooks;
import io.github.chash.cache.RingKeys;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.codec.MarkerBytes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cache cleared while one of three real redis-servers is frozen (SIGSTOP) and ejected, with
 * {@code onRejoin: keep}: the server keeps the cleared entry through the outage, so the clear must
 * reach it before it serves again, also when the clear comes while its probe is under way (the
 * interleaving of protocol simulation seed 3882762663, placed inside the probe's own call by a
 * {@link HookedNode}). The probes run by hand on a manual clock.
 */
class RedisClearWhileEjectedIT {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  private static final ValueType STRING = ValueType.of(String.class);

  private final ManagerHooks.Clock clock = new ManagerHooks.Clock();
  private final String victim = fleet.nodeIds().get(1);
  private HookedNode hooked;

  private ShardedCacheManager manager() {
    String yaml =
        fleet.nodesYaml()
            + "caches:\n  users: { ttl: 10m }\n"
            + "failover: { failureLimit: 3, retryAfter: 1s, timeout: 100ms, onRejoin: keep }\n";
    ChashConfig config = ChashConfigs.parse(yaml, "chash.yaml");
    return ManagerHooks.manualManager(
        config,
        clock,
        HookedNode.wrapping(new RedisCacheNodeFactory(), victim, made -> hooked = made));
  }

  /** Whether the victim's server holds a value (not a tombstone) under the routing key. */
  private boolean storedOnVictim(String routingKey) {
    byte[] bytes = fleet.server(victim).getEntry("chash:" + routingKey);
    return bytes != null && MarkerBytes.decode(bytes) == null;
  }

  /** Freezes the victim's server until {@code whileFrozen} has run, reading until it is out. */
  private void ejectFrozen(
      ShardedCacheManager manager, InterceptedCache users, String key, Runnable whileFrozen) {
    fleet.server(victim).pause();
    try {
      for (int i = 0; i < 9 && RingKeys.isLive(manager, victim); i++) {
        assertThat(users.getIfPresent(key, STRING)).isNull();
      }
      assertThat(RingKeys.isLive(manager, victim)).as("%s ejected", victim).isFalse();
      whileFrozen.run();
    } finally {
      fleet.server(victim).resume();
    }
  }

  private void probeWhenDue(ShardedCacheManager manager) {
    clock.advance(RETRY_AFTER);
    ManagerHooks.probe(manager);
    assertThat(RingKeys.isLive(manager, victim)).as("%s readmitted", victim).isTrue();
  }

  @Test
  void clearWhileTheNodeIsOut_theReadAfterItsReadmissionMisses() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String key = RingKeys.keysOwnedBy(manager, users, victim, 1).get(0);
      users.put(key, "v1");

      ejectFrozen(manager, users, key, users::clear);
      assertThat(storedOnVictim(key)).as("v1 kept through the outage").isTrue();
      probeWhenDue(manager);

      assertThat(users.getIfPresent(key, STRING)).isNull();
      assertThat(storedOnVictim(key)).isFalse();
    }
  }

  @Test
  void clearWhileTheNodesProbeRuns_theReadAfterItsReadmissionMisses() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = RingKeys.keysOwnedBy(manager, users, victim, 2);
      String key = keys.get(0);
      users.put(key, "v1");

      // the second key is written at a stand-in: the victim's copy of it is of unknown state, and
      // the probe deletes it before readmitting the node
      ejectFrozen(manager, users, key, () -> users.put(keys.get(1), "x"));
      assertThat(storedOnVictim(key)).as("v1 kept through the outage").isTrue();
      // the clear comes on the probe's thread, after it looked at the clears queued (none): when
      // it replaces the victim's copy of unknown state with the window's tombstone
      hooked.onceBefore("put", users::clear);
      probeWhenDue(manager);

      assertThat(users.getIfPresent(key, STRING)).isNull();
      assertThat(storedOnVictim(key)).isFalse();
    }
  }
}
