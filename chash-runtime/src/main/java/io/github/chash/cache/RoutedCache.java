package io.github.chash.cache;

import io.github.chash.ring.Node;
import java.time.Duration;
import java.util.List;

/** A {@link ShardedCache} that routes each key through the manager's {@link LiveRing}. */
final class RoutedCache implements ShardedCache {
  private final String name;
  private final String prefix;
  private final Duration ttl;
  private final StatsCounter stats;
  private final HitCounts hits;
  private final LiveRing ring;
  private final InFlightLoads inFlight;

  RoutedCache(
      String name,
      Duration ttl,
      StatsCounter stats,
      HitCounts hits,
      LiveRing ring,
      InFlightLoads inFlight) {
    this.name = name;
    this.prefix = name + ":";
    this.ttl = checkTtl(name, ttl);
    this.stats = stats;
    this.hits = hits;
    this.ring = ring;
    this.inFlight = inFlight;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Duration ttl() {
    return ttl;
  }

  @Override
  public ShardedCache withTtl(Duration ttl) {
    return new RoutedCache(name, ttl, stats, hits, ring, inFlight);
  }

  @Override
  public String routingKey(Object key, String where) {
    // One string each: the concatenations compile to a single allocation of the result.
    if (key instanceof String s) {
      return prefix.concat(s);
    }
    if (key instanceof Long l) {
      return prefix + l.longValue();
    }
    if (key instanceof Integer i) {
      return prefix + i.intValue();
    }
    String scalar = CanonicalKeys.scalarForm(key);
    if (scalar != null) {
      return prefix.concat(scalar);
    }
    return CanonicalKeys.appendTo(new StringBuilder(prefix), key, where).toString();
  }

  @Override
  public String routingKeyOfArguments(Object[] args, String method, String[] parameterNames) {
    return prefix.concat(CanonicalKeys.ofArguments(args, method, parameterNames));
  }

  @Override
  public Object getIfPresent(String routingKey, ValueType type) {
    NodeSlot slot = ring.routingFor(name).liveOwner(routingKey);
    if (slot == null) {
      stats.miss();
      return null;
    }
    Object value;
    try {
      value = slot.node.get(routingKey, type);
    } catch (RuntimeException e) {
      ring.failed(slot, e);
      stats.error();
      stats.miss();
      slot.stats.miss();
      return null;
    }
    ring.succeeded(slot);
    if (value == null) {
      stats.miss();
      slot.stats.miss();
    } else {
      hits.hit(slot);
    }
    return value;
  }

  @Override
  public <V> V get(
      String routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable {
    Object cached = getIfPresent(routingKey, type);
    if (cached != null) {
      @SuppressWarnings("unchecked")
      V value = (V) NullValue.unwrap(cached);
      return value;
    }
    return load(routingKey, type, loader, sync, cacheNull);
  }

  @Override
  public <V> V load(
      String routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable {
    if (!sync) {
      return loadAndStore(routingKey, loader, cacheNull);
    }
    InFlightLoads.Load mine = new InFlightLoads.Load();
    InFlightLoads.Load running = inFlight.joinOrStart(routingKey, mine);
    if (running != null) {
      @SuppressWarnings("unchecked")
      V shared = (V) NullValue.unwrap(InFlightLoads.await(routingKey, running));
      return shared;
    }
    try {
      // A load may have finished between our miss and our registration.
      Object stored = lookupUncounted(routingKey, type);
      if (stored != null) {
        mine.complete(stored);
        @SuppressWarnings("unchecked")
        V value = (V) NullValue.unwrap(stored);
        return value;
      }
      V value = loadAndStore(routingKey, loader, cacheNull);
      mine.complete(NullValue.wrap(value));
      return value;
    } catch (Throwable t) {
      mine.completeExceptionally(t);
      throw t;
    } finally {
      inFlight.finished(routingKey, mine);
    }
  }

  @Override
  public void put(String routingKey, Object value) {
    store(routingKey, NullValue.wrap(value), false);
  }

  @Override
  public void evict(String routingKey) {
    Routing routing = ring.routingFor(name);
    NodeSlot liveOwner = routing.liveOwner(routingKey);
    boolean liveOwnerDone = false;
    if (routing.configured.size() > 0) {
      List<Node> preference =
          routing.configured.locate(routingKey, Math.min(2, routing.configured.size()));
      for (Node node : preference) {
        NodeSlot slot = routing.slot(node.id());
        evictOn(slot, routingKey);
        liveOwnerDone |= slot == liveOwner;
      }
    }
    if (liveOwner != null && !liveOwnerDone) {
      evictOn(liveOwner, routingKey);
    }
  }

  /** This cache's hits on a node. */
  long hitsOn(NodeSlot slot) {
    return hits.onNode(slot.index);
  }

  @Override
  public CacheStats stats() {
    return stats.snapshot(hits.total());
  }

  @Override
  public String toString() {
    return "ShardedCache{name=" + name + ", ttl=" + ttl + "}";
  }

  private <V> V loadAndStore(String routingKey, ValueLoader<V> loader, boolean cacheNull)
      throws Throwable {
    NodeSlot owner = ring.routingFor(name).liveOwner(routingKey);
    V value;
    try {
      value = loader.load();
    } catch (Throwable t) {
      stats.loadFailure();
      if (owner != null) {
        owner.stats.loadFailure();
      }
      throw t;
    }
    stats.load();
    if (owner != null) {
      owner.stats.load();
    }
    if (value != null || cacheNull) {
      store(routingKey, NullValue.wrap(value), true);
    }
    return value;
  }

  private Object lookupUncounted(String routingKey, ValueType type) {
    NodeSlot slot = ring.routingFor(name).liveOwner(routingKey);
    if (slot == null || justFailed(slot)) {
      return null;
    }
    try {
      Object value = slot.node.get(routingKey, type);
      ring.succeeded(slot);
      return value;
    } catch (RuntimeException e) {
      ring.failed(slot, e);
      stats.error();
      return null;
    }
  }

  /**
   * Writes to the key's live owner. {@code optional} writes (filling the cache after a miss) are
   * skipped while the owner's last operation failed: the caller has usually just waited out that
   * node's timeout on the read, and must not wait a second time for a write that is only an
   * optimisation. Explicit puts are always attempted, so an update is never silently dropped.
   */
  private void store(String routingKey, Object stored, boolean optional) {
    Routing routing = ring.routingFor(name);
    NodeSlot slot = routing.liveOwner(routingKey);
    if (slot == null || (optional && justFailed(slot))) {
      return;
    }
    try {
      slot.node.put(routingKey, stored, ttl);
      ring.succeeded(slot);
    } catch (RuntimeException e) {
      ring.failed(slot, e);
      stats.error();
      return;
    }
    if (routing.degraded && routing.configuredOwner(routingKey) != slot) {
      ring.displacedWrite(routingKey, slot);
    }
  }

  /** Whether the node's most recent operation failed (a failure streak is running). */
  private static boolean justFailed(NodeSlot slot) {
    return slot.consecutiveFailures.get() != 0;
  }

  private void evictOn(NodeSlot slot, String routingKey) {
    if (slot.ejected) {
      return;
    }
    try {
      slot.node.evict(routingKey);
      ring.succeeded(slot);
    } catch (RuntimeException e) {
      ring.failed(slot, e);
      stats.error();
    }
  }

  private static Duration checkTtl(String cache, Duration ttl) {
    if (ttl != null && (ttl.isZero() || ttl.isNegative())) {
      throw new IllegalArgumentException(
          "ttl of cache \"" + cache + "\" must be positive; was " + ttl);
    }
    return ttl;
  }
}
