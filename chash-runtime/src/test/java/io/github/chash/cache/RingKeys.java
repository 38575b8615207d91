package io.github.chash.cache;

import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Node;
import java.util.ArrayList;
import java.util.List;

/** Keys of a node and liveness, as the tests against real servers look at a manager. */
public final class RingKeys {
  private RingKeys() {}

  /**
   * The first {@code count} routing keys {@code key-0, key-1, ...} of the cache that the node owns.
   */
  public static List<String> keysOwnedBy(
      ShardedCacheManager manager, InterceptedCache cache, String nodeId, int count) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; keys.size() < count; i++) {
      String key = cache.routingKey("key-" + i, "test");
      if (owner(manager, key).equals(nodeId)) {
        keys.add(key);
      }
    }
    return keys;
  }

  /** {@return the node id that owns the routing key in the manager's configured ring} */
  public static String owner(ShardedCacheManager manager, String routingKey) {
    return manager.ring().locate(VerbatimKeys.key(routingKey)).id();
  }

  /** Whether the node is in the manager's live ring (not ejected). */
  public static boolean isLive(ShardedCacheManager manager, String nodeId) {
    return manager.liveRing().nodes().stream().map(Node::id).anyMatch(nodeId::equals);
  }
}
