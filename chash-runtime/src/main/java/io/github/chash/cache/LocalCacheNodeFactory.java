package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;

/**
 * Builds {@code local} nodes: one Caffeine cache each, bounded by the node's {@code maximumSize}.
 */
final class LocalCacheNodeFactory implements CacheNodeFactory {
  private final Ticker ticker;

  LocalCacheNodeFactory(Ticker ticker) {
    this.ticker = ticker;
  }

  @Override
  public NodeType type() {
    return NodeType.LOCAL;
  }

  @Override
  public CacheNode create(NodeConfig node, ChashConfig config) {
    long size = node.maximumSize() > 0 ? node.maximumSize() : NodeConfig.DEFAULT_MAXIMUM_SIZE;
    return new LocalCacheNode(node.id(), size, ticker);
  }
}
