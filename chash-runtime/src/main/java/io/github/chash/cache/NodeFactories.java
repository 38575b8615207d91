package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Makes the nodes of a configuration: the factory set for a node's type, else the built-in local
 * one, else one found by {@link ServiceLoader} (so {@code type: redis} works once Lettuce is on the
 * class path, {@code type: memcached} once XMemcached is). Used when a manager is built and when it
 * is reconfigured. Thread-safe.
 */
final class NodeFactories {
  private final Map<NodeType, CacheNodeFactory> factories;
  private final Ticker ticker;

  NodeFactories(Map<NodeType, CacheNodeFactory> given, Ticker ticker) {
    this.factories = new EnumMap<>(NodeType.class);
    this.factories.putAll(given);
    this.ticker = ticker;
  }

  /**
   * Creates the node; it connects in the background ({@link CacheNode#awaitReady}).
   *
   * @throws IllegalArgumentException if no factory makes its type, naming the node and type, or the
   *     factory rejects the node
   */
  synchronized CacheNode create(NodeConfig node, ChashConfig whole) {
    CacheNodeFactory factory = factories.get(node.type());
    if (factory == null && node.type() == NodeType.LOCAL) {
      factory = new LocalCacheNodeFactory(ticker);
    }
    if (factory == null) {
      factory = load(node);
    }
    CacheNode created = factory.create(node, whole);
    if (!created.id().equals(node.id())) {
      created.close();
      throw new IllegalStateException(
          "node factory "
              + factory.getClass().getName()
              + " returned a node with id \""
              + created.id()
              + "\" for node \""
              + node.id()
              + "\"");
    }
    return created;
  }

  private CacheNodeFactory load(NodeConfig node) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ShardedCaches.class.getClassLoader();
    }
    Iterator<CacheNodeFactory> it = ServiceLoader.load(CacheNodeFactory.class, loader).iterator();
    ServiceConfigurationError broken = null;
    while (true) {
      try {
        if (!it.hasNext()) {
          break;
        }
        CacheNodeFactory candidate = it.next();
        if (candidate.type() == node.type()) {
          factories.put(node.type(), candidate);
          return candidate;
        }
      } catch (ServiceConfigurationError e) {
        // A provider whose client library is missing; keep looking, report it if none fits.
        broken = e;
      }
    }
    throw new IllegalArgumentException(
        "no cache node factory for type "
            + node.type().configName()
            + " of node \""
            + node.id()
            + "\"; put the module providing it (for redis: chash-runtime's redis support and"
            + " io.lettuce:lettuce-core; for memcached: com.googlecode.xmemcached:xmemcached) on"
            + " the class path",
        broken);
  }
}
