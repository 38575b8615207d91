package io.github.chash.cache;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@link ShardedCacheManager}: named caches over one {@link Router}, nodes kept by a {@link
 * Membership} that reconfigurations change.
 */
final class RingCacheManager implements ShardedCacheManager, Membership.Caches {
  private static final System.Logger LOG = System.getLogger(RingCacheManager.class.getName());

  /** The caches by name, in configuration order; replaced as a whole when caches are added. */
  private volatile Map<String, RoutedCache> caches;

  private final Function<CacheConfig, RoutedCache> newCache;
  private final Router router;
  private final FailurePolicy failures;
  private final NearCaches near;
  private Membership membership; // set once, right after construction

  RingCacheManager(
      Map<String, RoutedCache> caches,
      Function<CacheConfig, RoutedCache> newCache,
      Router router,
      FailurePolicy failures,
      NearCaches near) {
    this.caches = Collections.unmodifiableMap(new LinkedHashMap<>(caches));
    this.newCache = newCache;
    this.router = router;
    this.failures = failures;
    this.near = near;
  }

  void membership(Membership membership) {
    this.membership = membership;
  }

  @Override
  public ShardedCache cache(String name) {
    router.forCache(name); // throws once closed
    ShardedCache cache = caches.get(name);
    if (cache == null) {
      throw new IllegalArgumentException(
          "unknown cache \"" + name + "\"; configured caches are " + caches.keySet());
    }
    return cache;
  }

  @Override
  public Set<String> cacheNames() {
    return caches.keySet();
  }

  @Override
  public Ring ring() {
    return router.current().ring;
  }

  @Override
  public Ring liveRing() {
    return router.current().live();
  }

  @Override
  public CacheNode node(String id) {
    for (NodeSlot slot : membership.allSlots()) {
      if (slot.id().equals(id)) {
        return slot.node;
      }
    }
    throw new IllegalArgumentException(
        "unknown node \"" + id + "\"; configured nodes are " + ring().nodes());
  }

  @Override
  public List<NodeConfig> nodeConfigs() {
    return membership.nodeConfigs();
  }

  @Override
  public Map<String, CacheStats> nodeStats() {
    Map<String, CacheStats> out = new LinkedHashMap<>();
    for (NodeSlot slot : router.current().slots()) {
      long hits = 0;
      for (RoutedCache cache : caches.values()) {
        hits += cache.hitsOn(slot);
      }
      out.put(slot.id(), slot.stats.nodeSnapshot(hits, slot.node.replicaReadCount()));
    }
    return Collections.unmodifiableMap(out);
  }

  @Override
  public Map<String, CacheStats> cacheStats() {
    Map<String, CacheStats> out = new LinkedHashMap<>();
    caches.forEach((name, cache) -> out.put(name, cache.stats()));
    return Collections.unmodifiableMap(out);
  }

  @Override
  public void reconfigure(ChashConfig next) {
    router.forCache("-"); // throws once closed
    membership.reconfigure(next);
  }

  @Override
  public void addNode(NodeConfig node) {
    membership.changeNodes(
        nodes -> {
          List<NodeConfig> next = new ArrayList<>(nodes);
          next.add(node);
          return next;
        },
        "addNode");
  }

  @Override
  public void removeNode(String id) {
    membership.changeNodes(
        nodes -> {
          List<NodeConfig> next = new ArrayList<>(nodes);
          next.remove(Membership.configuredNode(nodes, id));
          return next;
        },
        "removeNode");
  }

  @Override
  public void drain(String id) {
    router.forCache("-"); // throws once closed
    membership.drain(id);
  }

  @Override
  public void readmit(String id) {
    router.forCache("-"); // throws once closed
    membership.readmit(id);
  }

  @Override
  public Set<String> drained() {
    return membership.drained();
  }

  @Override
  public void reweight(String id, int weight) {
    String problem = Node.weightProblem(weight);
    if (problem != null) {
      throw new IllegalArgumentException("weight of node \"" + id + "\" " + problem);
    }
    membership.changeNodes(
        nodes -> {
          NodeConfig node = Membership.configuredNode(nodes, id);
          List<NodeConfig> next = new ArrayList<>(nodes);
          next.set(next.indexOf(node), node.withWeight(weight));
          return next;
        },
        "reweight");
  }

  // Membership.Caches

  @Override
  public void ensureNodes(int nodes) {
    caches.values().forEach(c -> c.ensureNodes(nodes));
  }

  @Override
  public synchronized void addMissing(ChashConfig config) {
    Map<String, RoutedCache> next = new LinkedHashMap<>(caches);
    for (CacheConfig cache : config.caches().values()) {
      RoutedCache existing = next.get(cache.name());
      if (existing == null) {
        next.put(cache.name(), newCache.apply(cache));
        if (cache.near() != null) {
          LOG.log(
              Level.WARNING,
              "cache \"{0}\" gets its near cache at the next start; the nodes of a running manager"
                  + " report changes of the near caches it started with only",
              cache.name());
        }
      } else if (!java.util.Objects.equals(existing.ttl(), cache.ttl())) {
        LOG.log(
            Level.WARNING,
            "the ttl of cache \"{0}\" changes from {1} to {2} at the next start; a running manager"
                + " keeps its caches' ttls",
            cache.name(),
            existing.ttl(),
            cache.ttl());
      }
    }
    caches = Collections.unmodifiableMap(next);
  }

  @Override
  public boolean hasVerbatim() {
    return caches.values().stream().anyMatch(RoutedCache::verbatim);
  }

  @Override
  public void leftoverDeleted(String routingKey) {
    int colon = routingKey.indexOf(':');
    RoutedCache cache = colon < 0 ? null : caches.get(routingKey.substring(0, colon));
    if (cache != null) {
      cache.leftoverDeleted();
    }
  }

  /** The failure policy, for tests that drive probes by hand. */
  FailurePolicy failurePolicy() {
    return failures;
  }

  /** The current routing, for tests that look at its priors. */
  Routing routing() {
    return router.current();
  }

  /** The membership, for tests that drive sweeps by hand. */
  Membership membership() {
    return membership;
  }

  @Override
  public void close() {
    Set<NodeSlot> all = membership.allSlots();
    if (!failures.close()) {
      return; // nodes such as Redis clients must not be shut down twice
    }
    near.close();
    for (NodeSlot slot : all) {
      try {
        slot.node.close();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "closing cache node \"" + slot.id() + "\" failed", e);
      }
    }
  }

  @Override
  public String toString() {
    return "ShardedCacheManager{caches=" + caches.keySet() + ", nodes=" + ring().nodes() + "}";
  }
}
