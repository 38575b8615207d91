package io.github.chash.cache;

import io.github.chash.config.KeyLayout;
import java.util.List;

/** The servers of a fault test, one per node id, and managers over all of them. */
public interface TestFleet {
  /** {@return the server of a node} */
  TestServer server(String nodeId);

  /** {@return the node ids, in ring order} */
  List<String> nodeIds();

  /**
   * {@return a manager over every server, with the given {@code failover:} block}
   *
   * @param failover the block's YAML flow mapping
   */
  ShardedCacheManager manager(String failover);

  /**
   * {@return a manager over every server, with the given {@code failover:} block and settings of
   * cache {@code users}}
   *
   * @param failover the block's YAML flow mapping
   * @param users the cache's YAML flow mapping, e.g. {@code "{ ttl: 10m, keys: verbatim }"}
   */
  ShardedCacheManager managerWithUsers(String failover, String users);

  /**
   * {@return a manager over every server, with the given {@code failover:} block and cache {@code
   * users} (ttl 10m) in the given key layout}
   */
  default ShardedCacheManager manager(String failover, KeyLayout layout) {
    return managerWithUsers(failover, users(layout));
  }

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
