package io.github.chash.config;

import io.github.chash.ring.Node;
import io.github.chash.ring.RingSettings;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole {@code chash.yaml}: ring settings, nodes, caches, failover policy, Redis settings and
 * check limits. Immutable; build it by parsing ({@link ChashConfigs}) or directly.
 *
 * @param source where it came from, for messages ({@code chash.yaml}, or {@code <programmatic>})
 * @param ring how keys are placed
 * @param nodes the nodes in file order
 * @param caches named caches in file order
 * @param failover the failure policy
 * @param redis settings shared by Redis nodes
 * @param check limits of {@code chash:check}
 */
public record ChashConfig(
    String source,
    RingSettings ring,
    List<NodeConfig> nodes,
    Map<String, CacheConfig> caches,
    FailoverConfig failover,
    RedisConfig redis,
    CheckConfig check) {

  /** Compact constructor: defensive, order-keeping copies. */
  public ChashConfig {
    nodes = List.copyOf(nodes);
    caches = Collections.unmodifiableMap(new LinkedHashMap<>(caches));
  }

  /** The nodes as ring members. */
  public List<Node> ringNodes() {
    return nodes.stream().map(NodeConfig::toNode).toList();
  }
}
