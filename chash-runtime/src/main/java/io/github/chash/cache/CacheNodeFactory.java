package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;

/**
 * Creates the {@link CacheNode}s of one {@link NodeType}: the service-provider interface through
 * which remote node types plug in without this package depending on their client library.
 *
 * <p>{@link ShardedCaches} finds factories with {@link java.util.ServiceLoader} (register an
 * implementation in {@code META-INF/services/io.github.chash.cache.CacheNodeFactory}); factories
 * passed to {@link ShardedCaches.Builder#nodeFactory(CacheNodeFactory)} take precedence. The {@code
 * local} type is built in. Implementations need a public no-argument constructor and must be
 * thread-safe.
 */
public interface CacheNodeFactory {

  /** {@return the node type this factory creates} */
  NodeType type();

  /**
   * Creates a node; it need not be reachable yet (an unreachable node fails its calls and is
   * ejected like any failing node).
   *
   * @param node the node's entry of {@code nodes:}
   * @param config the whole configuration (shared settings such as {@code redis:} and {@code
   *     failover.timeout})
   * @return the node
   * @throws IllegalArgumentException if the node's settings are unusable, naming the node and value
   */
  CacheNode create(NodeConfig node, ChashConfig config);
}
