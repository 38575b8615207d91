package io.github.chash.cache;

import io.github.chash.config.KeyLayout;
import java.util.List;

/**
 * The servers a scenario runs over, one per node id, and the {@code nodes:} block that points at
 * them: real processes on loopback ({@link LoopbackFleet}) or simulated servers ({@link SimFleet}).
 * What only a real process seems to have (being killed, frozen, counted connections) is here in
 * terms both can do.
 */
public interface ScenarioFleet {
  /** {@return the server of a node} */
  ScenarioServer server(String nodeId);

  /** {@return the node ids, in ring order} */
  List<String> nodeIds();

  /** {@return {@code nodes:} entries of the given servers, in that order} */
  String nodesYaml(List<String> ids);

  /** {@return the settings of cache {@code users} (ttl 10m) in the given key layout} */
  default String users(KeyLayout layout) {
    return layout == KeyLayout.VERBATIM
        ? "{ ttl: 10m, keys: verbatim, codec: " + verbatimCodec() + " }"
        : "{ ttl: 10m }";
  }

  /** {@return the codec of a verbatim cache on these servers: one their peer clients read} */
  default String verbatimCodec() {
    return "jdk";
  }
}
