package io.github.chash.it.nodetype;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeFactory;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;

/**
 * The {@code type: test-memory} nodes of a {@code chash.yaml}: what a node type of one's own takes,
 * a factory registered in {@code META-INF/services/io.github.chash.cache.CacheNodeFactory}.
 */
public final class MemoryNodeFactory implements CacheNodeFactory {
  /** The type's name in {@code chash.yaml}. */
  public static final NodeType TYPE = NodeType.of("test-memory");

  /** What {@link java.util.ServiceLoader} calls. */
  public MemoryNodeFactory() {}

  @Override
  public NodeType type() {
    return TYPE;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if the node has a uri: this type keeps entries in the JVM
   */
  @Override
  public CacheNode create(NodeConfig node, ChashConfig config) {
    if (node.uri() != null) {
      throw new IllegalArgumentException(
          config.where("nodes[" + config.nodes().indexOf(node) + "].uri")
              + ": node \""
              + node.id()
              + "\" is of type test-memory, which takes no uri");
    }
    return new MemoryNode(node.id());
  }
}
