package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * Makes the nodes of a configuration: the factory set for a node's type, else the built-in local
 * one, else the one {@link ServiceLoader} finds whose {@link CacheNodeFactory#type()} has the
 * type's name (so {@code type: redis} works once chash's Redis artifact is on the class path, and a
 * type of one's own once its jar is). Used when a manager is built and when it is reconfigured.
 * Thread-safe.
 */
final class NodeFactories {
  private final Map<NodeType, CacheNodeFactory> factories;
  private final Ticker ticker;

  NodeFactories(Map<NodeType, CacheNodeFactory> given, Ticker ticker) {
    this.factories = new HashMap<>();
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
    if (factory == null && node.type().equals(NodeType.LOCAL)) {
      factory = new LocalCacheNodeFactory(ticker);
    }
    if (factory == null) {
      factory = load(node, whole);
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

  private CacheNodeFactory load(NodeConfig node, ChashConfig whole) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ShardedCaches.class.getClassLoader();
    }
    Iterator<CacheNodeFactory> it = ServiceLoader.load(CacheNodeFactory.class, loader).iterator();
    ServiceConfigurationError broken = null;
    TreeSet<String> found = new TreeSet<>(List.of(NodeType.LOCAL.configName()));
    while (true) {
      try {
        if (!it.hasNext()) {
          break;
        }
        CacheNodeFactory candidate = it.next();
        if (node.type().equals(candidate.type())) {
          factories.put(node.type(), candidate);
          return candidate;
        }
        found.add(String.valueOf(candidate.type()));
      } catch (ServiceConfigurationError e) {
        // A provider whose client library is missing; keep looking, report it if none fits.
        broken = e;
      }
    }
    throw new IllegalArgumentException(
        whole.where("nodes[" + whole.nodes().indexOf(node) + "].type")
            + ": no cache node factory for type "
            + node.type().configName()
            + " of node \""
            + node.id()
            + "\" on the class path (found: "
            + String.join(", ", found)
            + "); add the artifact that provides it ("
            + artifactOf(node.type())
            + ")",
        broken);
  }

  /** Which artifact brings a type's factory, for the message that it is missing. */
  private static String artifactOf(NodeType type) {
    if (type.equals(NodeType.REDIS)) {
      return "io.github.chash:chash-redis";
    }
    if (type.equals(NodeType.MEMCACHED)) {
      return "io.github.chash:chash-memcached";
    }
    return "a jar registering an io.github.chash.cache.CacheNodeFactory of that type in"
        + " META-INF/services";
  }
}
