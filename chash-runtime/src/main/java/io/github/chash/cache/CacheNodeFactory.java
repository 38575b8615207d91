package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;

/**
 * Creates the {@link CacheNode}s of one {@link NodeType}: the service-provider interface through
 * which node types plug in without this package depending on their client library. chash's Redis
 * and memcached artifacts are such providers; a node type of one's own is one too: a jar with a
 * factory whose {@link #type()} is, say, {@code NodeType.of("hazelcast")}, registered in {@code
 * META-INF/services/io.github.chash.cache.CacheNodeFactory} (or {@code provides} in a module
 * descriptor), makes {@code type: hazelcast} nodes work, with no change to chash.
 *
 * <p>{@link ShardedCaches} finds factories with {@link java.util.ServiceLoader}; factories passed
 * to {@link ShardedCaches.Builder#nodeFactory(CacheNodeFactory)} take precedence. The {@code local}
 * type is built in. For a type chash does not know, the configuration checks the node's id, weight
 * and name only; {@code uri} is optional and passed as written: the factory checks it and says what
 * is wrong, naming the node. Implementations need a public no-argument constructor and must be
 * thread-safe. A node a factory creates should pass {@code CacheNodeContractTest} (in
 * chash-runtime's test jar).
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
