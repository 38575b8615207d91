package io.github.chash.cache;

import io.github.chash.ring.Ring;
import java.lang.System.Logger.Level;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The {@link ShardedCacheManager}: fixed caches and nodes over one {@link Router}. */
final class RingCacheManager implements ShardedCacheManager {
  private static final System.Logger LOG = System.getLogger(RingCacheManager.class.getName());

  private final Map<String, RoutedCache> caches;
  private final Map<String, NodeSlot> slots;
  private final Router router;
  private final FailurePolicy failures;

  RingCacheManager(
      Map<String, RoutedCache> caches,
      Map<String, NodeSlot> slots,
      Router router,
      FailurePolicy failures) {
    this.caches = caches;
    this.slots = slots;
    this.router = router;
    this.failures = failures;
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
    return Collections.unmodifiableSet(caches.keySet());
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
    NodeSlot slot = slots.get(id);
    if (slot == null) {
      throw new IllegalArgumentException(
          "unknown node \"" + id + "\"; configured nodes are " + slots.keySet());
    }
    return slot.node;
  }

  @Override
  public Map<String, CacheStats> nodeStats() {
    Map<String, CacheStats> out = new LinkedHashMap<>();
    for (var node : ring().nodes()) {
      NodeSlot slot = slots.get(node.id());
      long hits = 0;
      for (RoutedCache cache : caches.values()) {
        hits += cache.hitsOn(slot);
      }
      out.put(node.id(), slot.stats.snapshot(hits));
    }
    return Collections.unmodifiableMap(out);
  }

  @Override
  public Map<String, CacheStats> cacheStats() {
    Map<String, CacheStats> out = new LinkedHashMap<>();
    caches.forEach((name, cache) -> out.put(name, cache.stats()));
    return Collections.unmodifiableMap(out);
  }

  /** The failure policy, for tests that drive probes by hand. */
  FailurePolicy failurePolicy() {
    return failures;
  }

  @Override
  public void close() {
    if (!failures.close()) {
      return; // nodes such as Redis clients must not be shut down twice
    }
    for (NodeSlot slot : slots.values()) {
      try {
        slot.node.close();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "closing cache node \"" + slot.id() + "\" failed", e);
      }
    }
  }

  @Override
  public String toString() {
    return "ShardedCacheManager{caches=" + caches.keySet() + ", nodes=" + slots.keySet() + "}";
  }
}
