package io.github.chash.cache;

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
}
