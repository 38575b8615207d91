package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheNodeFactory;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ManagerHooks;
import io.github.chash.cache.MembershipProtocolScenarios;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfig;
import io.github.chash.internal.cache.InterceptedCache;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MembershipProtocolScenarios} on four real redis-servers, and the leftover sweep of keys
 * that hold unpaired surrogates (stored in their WTF-8 bytes, which UTF-8 cannot decode).
 */
class RedisProtocolScenariosIT extends MembershipProtocolScenarios {
  private static final ValueType STRING = ValueType.of(String.class);

  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(4);

  @Override
  protected LoopbackFleet<?> fleet() {
    return fleet;
  }

  @Override
  protected CacheNodeFactory nodeFactory() {
    return new RedisCacheNodeFactory();
  }

  @Override
  protected int serverConnections(String nodeId) {
    String list = (String) fleet.server(nodeId).command("CLIENT", "LIST");
    int clients = 0;
    for (String line : list.split("\n")) {
      if (!line.isBlank() && !line.contains("cmd=client")) {
        clients++;
      }
    }
    return clients;
  }

  /** {@link #olderJvmsSweepOfANewerRingsTarget_leavesNoOlderValueReadable()}. */
  @Test
  void olderJvmsSweep_ofACopyThatIsANewerRingsTarget_leavesNoOlderValueReadable() {
    olderJvmsSweepOfANewerRingsTarget_leavesNoOlderValueReadable();
  }

  /**
   * 1,000 keys whose ids end in an unpaired surrogate written on three nodes, a fourth added, its
   * window passes and the leftover sweep runs. Counted on the servers, key by key: every key that
   * did not move is still on its owner (the sweep deleted none a node still owns), and no key that
   * moved is left on its previous owner (the sweep deleted every leftover).
   */
  @Test
  void keysWithUnpairedSurrogates_theSweepDeletesEveryLeftoverAndNoKeyItsNodeOwns() {
    ManagerHooks.Clock clock = new ManagerHooks.Clock();
    ChashConfig four = config(first(4));
    String[] surrogates = {"\uD800", "\uDBFF", "\uDC00", "\uDFFF"};
    try (ShardedCacheManager manager = ManagerHooks.manualManager(config(first(3)), clock)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        keys.add(users.routingKey("k" + i + surrogates[i % surrogates.length], "test"));
      }
      keys.forEach(key -> users.put(key, "v1"));
      var threeRing = manager.ring();

      manager.addNode(four.nodes().get(3));
      List<String> moved = ownedBy(manager, keys, fourth());
      List<String> stayed = keys.stream().filter(k -> !moved.contains(k)).toList();
      clock.advance(WINDOW.plusSeconds(1));
      ManagerHooks.sweep(manager);

      int deletedOwned = 0;
      for (String key : stayed) {
        deletedOwned += stored(manager, manager.ring().locate(key).id(), key) ? 0 : 1;
      }
      int leftovers = 0;
      for (String key : moved) {
        leftovers += stored(manager, threeRing.locate(key).id(), key) ? 1 : 0;
      }
      // values only: a sweep leaves the window's tombstone where it took a leftover's home copy
      long onServers = 0;
      for (String id : fleet.nodeIds()) {
        for (String key : keys) {
          onServers += stored(manager, id, key) ? 1 : 0;
        }
      }
      System.out.printf(
          "%n=== %s: %d keys with unpaired surrogates, %d moved to %s; after the sweep:"
              + " leftovers %d of %d, keys deleted on the node that owns them %d of %d,"
              + " values on the servers %d (expected %d)%n",
          getClass().getSimpleName(),
          keys.size(),
          moved.size(),
          fourth(),
          leftovers,
          moved.size(),
          deletedOwned,
          stayed.size(),
          onServers,
          stayed.size());
      assertThat(deletedOwned).as("keys the sweep deleted on the node that owns them").isZero();
      assertThat(leftovers).as("moved keys left on their previous owner").isZero();
      assertThat(onServers).as("values on the servers").isEqualTo(stayed.size());
    }
  }

  /** Whether the node's server holds the key (through the node: its bytes are the node's). */
  private static boolean stored(ShardedCacheManager manager, String nodeId, String key) {
    return manager.node(nodeId).get(key, ValueType.OBJECT) != null;
  }
}
