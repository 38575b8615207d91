package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NearInvalidation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The near caches of a manager, by cache name, and the nodes' invalidation channels that keep them
 * coherent: each node is asked once ({@link #attach}) to report changes of the keys of every cache
 * with a near cache; what it reports goes to that cache's {@link NearCache} or to the node's {@link
 * NodeTracking}. The set of near caches is fixed when the manager is built (a cache a later
 * configuration adds gets none until the next start). Thread-safe.
 */
final class NearCaches {
  private final Map<String, NearCache> byName;
  private final Map<String, CacheConfig> configs;
  private final List<String> prefixes;

  /** The coarse clock hits read, held until {@link #close}; null when not on the system clock. */
  private final CoarseClock coarseClock;

  private NearCaches(
      Map<String, NearCache> byName, Map<String, CacheConfig> configs, CoarseClock coarseClock) {
    this.byName = byName;
    this.configs = configs;
    this.prefixes = byName.keySet().stream().map(name -> name + ":").toList();
    this.coarseClock = coarseClock;
  }

  /** The near caches of the caches that configure one; none, and no clock, when none does. */
  static NearCaches of(Collection<CacheConfig> caches, Router router, Ticker ticker) {
    Map<String, CacheConfig> configs = new LinkedHashMap<>();
    caches.stream().filter(c -> c.near() != null).forEach(c -> configs.put(c.name(), c));
    CoarseClock clock =
        !configs.isEmpty() && ticker == Ticker.systemTicker()
            ? CoarseClock.shared().acquire()
            : null;
    Ticker readTicker = clock != null ? clock : ticker;
    Map<String, NearCache> byName = new LinkedHashMap<>();
    configs.forEach(
        (name, c) -> byName.put(name, new NearCache(c.near(), router, ticker, readTicker)));
    return new NearCaches(Map.copyOf(byName), Map.copyOf(configs), clock);
  }

  /** {@return the cache's near cache, or null when it has none} */
  NearCache of(String cacheName) {
    return byName.get(cacheName);
  }

  /**
   * Asks a new node to report changes of the near caches' keys, before it serves. A remote node
   * that cannot is refused for a cache whose near cache relies on the servers ({@code
   * near.invalidation: server}), naming where that cache's {@code near} was written.
   *
   * @throws IllegalArgumentException if the node cannot report changes and some cache needs it to
   */
  void attach(NodeSlot slot, ChashConfig config) {
    if (byName.isEmpty()) {
      return;
    }
    boolean tracked = slot.node.track(prefixes, listener(slot));
    slot.tracking.tracked = tracked;
    if (tracked || slot.node instanceof LocalCacheNode) {
      return; // a local node's values are never kept: it is as near as a near cache
    }
    List<String> refusing = new ArrayList<>();
    configs.forEach(
        (name, c) -> {
          if (c.near().invalidation() == NearInvalidation.SERVER) {
            refusing.add(name);
          }
        });
    if (!refusing.isEmpty()) {
      String name = refusing.get(0);
      String path = "caches." + name + ".near";
      throw new IllegalArgumentException(
          (config != null ? config.where(path) : ChashConfig.PROGRAMMATIC)
              + ": "
              + path
              + " needs every node to report changes of its keys (Redis 6 or later), but node \""
              + slot.id()
              + "\" cannot (memcached, or a Redis shard read from its replicas); set"
              + " near.invalidation: ttl to serve near entries up to near.ttl stale from such"
              + " nodes, or remove near");
    }
  }

  /** What a node's channel reports, to the node's tracking state and the caches' near caches. */
  private Invalidations listener(NodeSlot slot) {
    return new Invalidations() {
      @Override
      public void tracking() {
        slot.tracking.on();
      }

      @Override
      public void changed(String routingKey) {
        int colon = routingKey.indexOf(':');
        NearCache near = colon < 0 ? null : byName.get(routingKey.substring(0, colon));
        if (near != null && !Planted.on(Planted.NEAR_IGNORES_INVALIDATION)) {
          near.invalidate(routingKey);
        }
        slot.stats.invalidation();
      }

      @Override
      public void lost() {
        slot.stats.invalidationsLost();
        slot.tracking.off();
      }
    };
  }

  /** Releases the coarse clock; the manager is closed. */
  void close() {
    if (coarseClock != null) {
      coarseClock.release();
    }
  }
}
