package io.github.chash.cache;

import io.github.chash.config.KeyLayout;

/** The servers of a fault test, one per node id, and managers over all of them. */
public interface TestFleet extends ScenarioFleet {
  /** {@return the server of a node} */
  @Override
  TestServer server(String nodeId);

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
}
