package io.github.chash.cache;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/**
 * A {@link ShardedCache} that routes each key through the manager's {@link Router}.
 *
 * <p>Every operation takes one {@link Routing} and serves the key from that generation's target; a
 * write whose generation ended while it ran deletes the key on its new target, so a key that moved
 * holds nothing older there. What the routing cannot vouch for (a failed write, a copy written away
 * from home) is tracked in the nodes' {@link CopyMarks} and read as a miss. A fill after a load is
 * dropped when a write of the key began in between ({@link WriteStamps}).
 */
final class RoutedCache implements InterceptedCache {
  private final String name;
  private final String prefix;
  private final Duration ttl;
  private final Duration fallbackTtl;
  private final StatsCounter stats;
  private final HitCounts hits;
  private final Router router;
  private final FailurePolicy policy;
  private final boolean keepOnRejoin;
  private final InFlightLoads inFlight;
  private final WriteStamps stamps;

  RoutedCache(
      String name,
      Duration ttl,
      StatsCounter stats,
      HitCounts hits,
      Router router,
      FailurePolicy policy,
      InFlightLoads inFlight,
      WriteStamps stamps) {
    this.name = name;
    this.prefix = name + ":";
    this.ttl = new CacheConfig(name, ttl).ttl(); // the rules of chash.yaml's caches
    this.fallbackTtl = policy.config().fallbackTtl();
    this.stats = stats;
    this.hits = hits;
    this.router = router;
    this.policy = policy;
    this.keepOnRejoin = policy.config().onRejoin() == OnRejoin.KEEP;
    this.inFlight = inFlight;
    this.stamps = stamps;
  }

  /** A routing and the target it gives a key: resolved once, carried through an operation. */
  private record Route(Routing routing, NodeSlot target) {}

  @Override
  public String name() {
    return name;
  }

  @Override
  public Duration ttl() {
    return ttl;
  }

  @Override
  public InterceptedCache withTtl(Duration ttl) {
    return new RoutedCache(name, ttl, stats, hits, router, policy, inFlight, stamps);
  }

  @Override
  public <V> TypedCache<Object, V> typed(Class<V> valueType) {
    return new TypedView<>(this, ValueType.of(valueType));
  }

  @Override
  public <K, V> TypedCache<K, V> typed(Class<K> keyType, Class<V> valueType) {
    java.util.Objects.requireNonNull(keyType, "keyType");
    return new TypedView<>(this, ValueType.of(valueType));
  }

  @Override
  public String routingKey(Object key, String where) {
    return CanonicalKeys.prefixed(prefix, key, where);
  }

  @Override
  public String routingKeyOfArguments(Object[] args, String method, String[] parameterNames) {
    return prefix.concat(CanonicalKeys.ofArguments(args, method, parameterNames));
  }

  @Override
  public Object getIfPresent(String routingKey, ValueType type) {
    Routing r = router.forCache(name);
    return read(r, r.target(routingKey), routingKey, type);
  }

  @Override
  public Object getIfPresentByKey(Object key, String where, ValueType type) {
    KeyProbe probe = KeyProbe.of(prefix, key, where);
    return probe != null ? readProbing(probe, type) : getIfPresent(routingKey(key, where), type);
  }

  @Override
  public Object getIfPresentByKey(long key, ValueType type) {
    KeyProbe probe = KeyProbe.of(prefix, key);
    return probe != null ? readProbing(probe, type) : getIfPresent(prefix + key, type);
  }

  /**
   * {@link #read} for the plain case, a hit on a local home node that has no copy marks while every
   * node serves, found with the probe; anything else (a miss, a remote node, a degraded or
   * migrating ring) takes the full read with the routing key as a string. Counts as {@code read}.
   */
  private Object readProbing(KeyProbe probe, ValueType type) {
    Routing r = router.forCache(name);
    NodeSlot target = r.target(probe);
    if (target != null
        && !r.degraded
        && target.marks.isEmpty()
        && target.node instanceof LocalCacheNode local) {
      int failuresBefore = target.failureTotal.get();
      Object value = local.getProbing(probe);
      if (value != null) {
        policy.succeeded(target, false, failuresBefore);
        hits.hit(target);
        return value;
      }
    }
    return read(r, target, probe.toString(), type);
  }

  @Override
  public <V> V get(
      String routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable {
    Routing r = router.forCache(name);
    NodeSlot target = r.target(routingKey);
    Object cached = read(r, target, routingKey, type);
    if (cached != null) {
      @SuppressWarnings("unchecked")
      V value = (V) NullValue.unwrap(cached);
      return value;
    }
    return load(new Route(r, target), routingKey, type, loader, sync, cacheNull);
  }

  @Override
  public <V> V load(
      String routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable {
    return load(route(routingKey), routingKey, type, loader, sync, cacheNull);
  }

  private <V> V load(
      Route route,
      String routingKey,
      ValueType type,
      ValueLoader<V> loader,
      boolean sync,
      boolean cacheNull)
      throws Throwable {
    if (!sync) {
      return loadAndFill(route, routingKey, loader, cacheNull);
    }
    InFlightLoads.Load mine = InFlightLoads.Load.blocking();
    InFlightLoads.Load running = inFlight.joinOrStart(routingKey, mine);
    if (running != null) {
      @SuppressWarnings("unchecked")
      V shared = (V) NullValue.unwrap(InFlightLoads.await(routingKey, running));
      return shared;
    }
    try {
      // A load may have finished between our miss and our registration.
      Route now = current(route, routingKey);
      Object stored = readUncounted(now, routingKey, type);
      if (stored != null) {
        mine.complete(stored);
        @SuppressWarnings("unchecked")
        V value = (V) NullValue.unwrap(stored);
        return value;
      }
      V value = loadAndFill(now, routingKey, loader, cacheNull);
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
  public <V> CompletionStage<V> loadFuture(
      String routingKey,
      ValueType type,
      FutureLoader<V> loader,
      boolean sync,
      Predicate<? super V> storable)
      throws Throwable {
    Route route = route(routingKey);
    if (!sync) {
      return loadFutureAndFill(route, routingKey, loader, storable, null);
    }
    InFlightLoads.Load mine = InFlightLoads.Load.future();
    InFlightLoads.Load running = inFlight.joinOrStart(routingKey, mine);
    if (running != null) {
      // a blocking load or a future's: either completes with the stored form
      @SuppressWarnings("unchecked")
      CompletionStage<V> shared = running.thenApply(stored -> (V) NullValue.unwrap(stored));
      return shared;
    }
    try {
      Route now = current(route, routingKey);
      Object stored = readUncounted(now, routingKey, type);
      if (stored != null) {
        mine.complete(stored);
        inFlight.finished(routingKey, mine);
        @SuppressWarnings("unchecked")
        V value = (V) NullValue.unwrap(stored);
        return CompletableFuture.completedFuture(value);
      }
      return loadFutureAndFill(now, routingKey, loader, storable, mine);
    } catch (Throwable t) {
      mine.completeExceptionally(t);
      inFlight.finished(routingKey, mine);
      throw t;
    }
  }

  /**
   * Starts the future and, when it completes, stores its value as a fill would: not when a write of
   * the key began after the start, so a slow future never overwrites a newer put.
   */
  private <V> CompletionStage<V> loadFutureAndFill(
      Route route,
      String routingKey,
      FutureLoader<V> loader,
      Predicate<? super V> storable,
      InFlightLoads.Load shared)
      throws Throwable {
    long stamp = stamps.stamp(routingKey);
    NodeSlot owner = route.target;
    CompletionStage<V> future;
    try {
      future = loader.start();
    } catch (Throwable t) {
      loadFailed(owner);
      throw t;
    }
    if (future == null) {
      // the method's own result, handed back as it is; callers sharing the load learn why
      if (shared != null) {
        inFlight.finished(routingKey, shared);
        shared.completeExceptionally(
            new NullPointerException(
                "the loader of key \"" + routingKey + "\" returned no future"));
      }
      return null;
    }
    future.whenComplete(
        (value, failure) -> {
          try {
            if (failure != null) {
              loadFailed(owner);
            } else {
              loaded(owner);
              if (storable.test(value)) {
                fill(current(route, routingKey), routingKey, NullValue.wrap(value), stamp, ttl);
              }
            }
          } finally {
            if (shared != null) {
              inFlight.finished(routingKey, shared);
              if (failure == null) {
                shared.complete(NullValue.wrap(value));
              } else {
                shared.completeExceptionally(InFlightLoads.unwrap(failure));
              }
            }
          }
        });
    return future;
  }

  @Override
  public void put(String routingKey, Object value) {
    beginWrite(routingKey);
    write(route(routingKey), routingKey, NullValue.wrap(value), false, 0, ttl);
  }

  /**
   * Deletes the key on its target and, when that is the key's home, on the home's first stand-in
   * too, where another JVM that ejected the home earlier may have written a copy.
   */
  @Override
  public void evict(String routingKey) {
    beginWrite(routingKey);
    stats.eviction();
    Route route = route(routingKey);
    write(route, routingKey, null, false, 0, null);
    if (route.target != null && route.routing.home(routingKey) == route.target) {
      NodeSlot standIn = route.routing.standIn(routingKey, route.target);
      if (standIn != null) {
        write(new Route(route.routing, standIn), routingKey, null, false, 0, null);
      }
    }
  }

  /**
   * Removes this cache's entries from every serving node. A node that is out is cleared before it
   * serves again: emptied ({@code onRejoin: flush}) or cleared of this cache ({@code keep}); a
   * serving node whose clear fails is ejected and emptied before it rejoins.
   */
  @Override
  public void clear() {
    stamps.advanceAll();
    inFlight.forgetStartingWith(prefix);
    Routing r = router.forCache(name);
    for (NodeSlot slot : r.reachableSlots()) {
      if (slot.ejected) {
        slot.pendingClears.add(prefix);
        continue;
      }
      int failuresBefore = slot.failureTotal.get();
      try {
        slot.node.clear(prefix);
        policy.succeeded(slot, true, failuresBefore);
        stats.eviction();
      } catch (RuntimeException e) {
        stats.error();
        policy.failed(slot, e, true);
        policy.mustEmpty(slot, "because clearing cache \"" + name + "\" on it failed");
      }
    }
  }

  /**
   * Reads many keys: the keys grouped by target, one request per node, every request sent before
   * any is awaited. Returns the stored values (a cached null as {@link NullValue#INSTANCE}) of the
   * hits; counts each key's hit or miss. A node that fails makes its keys misses.
   */
  Map<String, Object> getAllPresent(Collection<String> routingKeys, ValueType type) {
    Routing r = router.forCache(name);
    Map<NodeSlot, List<String>> byTarget = new LinkedHashMap<>();
    for (String key : routingKeys) {
      NodeSlot target = r.target(key);
      if (target == null || !r.readable(target, key)) {
        miss(target);
      } else {
        byTarget.computeIfAbsent(target, t -> new ArrayList<>()).add(key);
      }
    }
    Map<NodeSlot, CompletableFuture<Map<String, Object>>> sent = new LinkedHashMap<>();
    Map<NodeSlot, Integer> failuresBefore = new HashMap<>();
    byTarget.forEach(
        (target, keys) -> {
          failuresBefore.put(target, target.failureTotal.get());
          sent.put(target, send(() -> target.node.getAll(keys, type)));
        });
    Map<String, Object> found = new HashMap<>();
    sent.forEach(
        (target, reply) -> {
          List<String> keys = byTarget.get(target);
          Map<String, Object> values;
          try {
            values = reply.join();
          } catch (CompletionException e) {
            policy.failed(target, runtime(e.getCause()), false);
            stats.error();
            keys.forEach(k -> miss(target));
            return;
          }
          policy.succeeded(target, false, failuresBefore.get(target));
          for (String key : keys) {
            Object value = values.get(key);
            if (value instanceof ValueRefusedException) {
              refused(target);
              miss(target);
            } else if (value == null) {
              miss(target);
            } else {
              hits.hit(target);
              found.put(key, value);
            }
          }
        });
    return found;
  }

  /** Stores many values: one request per node, every request sent before any is awaited. */
  void putAll(Map<String, Object> values) {
    values.keySet().forEach(this::beginWrite);
    writeAll(router.forCache(name), wrapAll(values), false);
  }

  /**
   * Loads the missing keys with one call of {@code loader} and fills them in one request per node,
   * under the same rule as a single fill: a key a write began on during the load is not stored.
   * Returns what the loader returned, by routing key; counts one load (as Caffeine's bulk load).
   */
  Map<String, Object> loadAll(Collection<String> missing, BulkLoader loader) {
    Map<String, Long> stampsBefore = new HashMap<>();
    missing.forEach(key -> stampsBefore.put(key, stamps.stamp(key)));
    Map<String, Object> loaded;
    try {
      loaded = loader.load(missing);
    } catch (RuntimeException | Error e) {
      stats.loadFailure();
      throw e;
    }
    stats.load();
    Map<String, Object> fill = new LinkedHashMap<>();
    loaded.forEach(
        (key, value) -> {
          if (value != null
              && stampsBefore.containsKey(key)
              && stamps.stamp(key) == stampsBefore.get(key)) {
            fill.put(key, value);
          }
        });
    Routing r = router.forCache(name);
    for (String key : writeAll(r, fill, true)) {
      if (stamps.stamp(key) != stampsBefore.get(key)) {
        write(route(key), key, null, false, 0, null); // a write began while the fill ran
      }
    }
    return loaded;
  }

  /** The bulk loader of {@link #loadAll}: routing keys in, values by routing key out. */
  @FunctionalInterface
  interface BulkLoader {
    Map<String, Object> load(Collection<String> routingKeys);
  }

  /**
   * The bulk form of {@link #write}: the same rules for each key, grouped by target (and by whether
   * the key is at home, which decides its TTL), one request per group.
   */
  private java.util.Set<String> writeAll(Routing r, Map<String, Object> stored, boolean optional) {
    java.util.Set<String> written = new java.util.HashSet<>();
    record Group(NodeSlot target, boolean atHome) {}
    Map<Group, Map<String, Object>> groups = new LinkedHashMap<>();
    stored.forEach(
        (key, value) -> {
          NodeSlot target = r.target(key);
          if (target == null) {
            if (keepOnRejoin) {
              policy.unknownCopy(r.home(key), key);
            }
            return;
          }
          if (optional && target.justFailed()) {
            return;
          }
          NodeSlot home = r.degraded ? r.home(key) : target;
          boolean atHome = home == target;
          if (!atHome) {
            if (!target.marks.beginOffHomeWrite(key)) {
              policy.trackingFull();
              return;
            }
            if (keepOnRejoin) {
              policy.unknownCopy(home, key);
            }
          }
          groups
              .computeIfAbsent(new Group(target, atHome), g -> new LinkedHashMap<>())
              .put(key, value);
        });
    Map<Group, CompletableFuture<Map<String, ValueRefusedException>>> sent = new LinkedHashMap<>();
    Map<Group, Integer> failuresBefore = new HashMap<>();
    groups.forEach(
        (group, values) -> {
          failuresBefore.put(group, group.target.failureTotal.get());
          sent.put(
              group,
              send(() -> group.target.node.putAll(values, group.atHome ? ttl : offHomeTtl(ttl))));
        });
    sent.forEach(
        (group, reply) -> {
          NodeSlot target = group.target;
          Map<String, Object> values = groups.get(group);
          Map<String, ValueRefusedException> refusals;
          try {
            refusals = reply.join();
          } catch (CompletionException e) {
            stats.error();
            values.keySet().forEach(key -> policy.unknownCopy(target, key));
            policy.failed(target, runtime(e.getCause()), true);
            return;
          }
          policy.succeeded(target, true, failuresBefore.get(group));
          for (String key : values.keySet()) {
            if (refusals.containsKey(key)) {
              refused(target);
              write(new Route(r, target), key, null, false, 0, null); // no older value may stay
            } else {
              if (group.atHome) {
                target.marks.forget(key);
              } else {
                target.marks.written(key, r.generation);
              }
              stats.put();
              target.stats.put();
              written.add(key);
              deletePriors(r, target, key);
            }
          }
        });
    Routing after = router.current();
    if (after != r && !after.closed) {
      // the generation ended while we wrote: the keys' readers may look elsewhere now
      groups.forEach(
          (group, values) ->
              values
                  .keySet()
                  .forEach(
                      key -> {
                        NodeSlot next = after.target(key);
                        if (next != null && next != group.target) {
                          write(new Route(after, next), key, null, false, 1, null);
                        }
                      }));
    }
    return written;
  }

  /** A node call's reply; a node that throws at once gives a failed reply instead. */
  private static <T> CompletableFuture<T> send(
      java.util.function.Supplier<CompletableFuture<T>> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static RuntimeException runtime(Throwable t) {
    return t instanceof RuntimeException r ? r : new IllegalStateException(t);
  }

  private static Map<String, Object> wrapAll(Map<String, Object> values) {
    Map<String, Object> wrapped = new LinkedHashMap<>();
    values.forEach((key, value) -> wrapped.put(key, NullValue.wrap(value)));
    return wrapped;
  }

  /** Makes room in the per-node hit counters for node indexes below {@code nodes}. */
  void ensureNodes(int nodes) {
    hits.ensure(nodes);
  }

  /** A copy of one of this cache's keys was deleted by a leftover sweep. */
  void leftoverDeleted() {
    stats.leftoverDeletions(1);
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

  private Route route(String routingKey) {
    Routing r = router.forCache(name);
    return new Route(r, r.target(routingKey));
  }

  /** The route known so far if the routing has not changed since; else the current one. */
  private Route current(Route known, String routingKey) {
    Routing now = router.forCache(name);
    return now == known.routing ? known : new Route(now, now.target(routingKey));
  }

  /** Reads the key from its target, counting a hit or a miss. */
  private Object read(Routing r, NodeSlot target, String routingKey, ValueType type) {
    Object value = null;
    boolean cleanMiss = false;
    if (target != null && r.readable(target, routingKey)) {
      int failuresBefore = target.failureTotal.get();
      try {
        value = target.node.get(routingKey, type);
        policy.succeeded(target, false, failuresBefore);
        cleanMiss = value == null;
      } catch (ValueRefusedException e) {
        policy.succeeded(target, false, failuresBefore);
        refused(target);
      } catch (RuntimeException e) {
        policy.failed(target, e, false);
        stats.error();
      }
    }
    if (cleanMiss && !r.priors.isEmpty()) {
      // only after a clean miss: a target whose copy is unknown must not be bypassed
      value = readPrior(r, target, routingKey, type);
    }
    if (value == null) {
      miss(target);
    } else {
      hits.hit(target);
    }
    return value;
  }

  /**
   * Within a migration window, a miss on the key's owner reads its previous owners, newest first; a
   * hit is served, copied to the owner with the time it has left unless a write of the key began
   * meanwhile, and deleted where it was (the copy is a write, and writes delete on previous
   * owners). A previous owner whose copy is marked is not read.
   */
  private Object readPrior(Routing r, NodeSlot target, String routingKey, ValueType type) {
    long now = policy.now();
    List<NodeSlot> asked = new ArrayList<>(2);
    for (Prior prior : r.priors) {
      NodeSlot from = prior.home(routingKey);
      if (!prior.inWindow(now)
          || from == target
          || asked.contains(from)
          || from.ejected
          || (!from.marks.isEmpty() && from.marks.get(routingKey) != null)) {
        continue;
      }
      asked.add(from);
      long stamp = stamps.stamp(routingKey);
      CacheNode.StoredEntry entry;
      int failuresBefore = from.failureTotal.get();
      try {
        entry = from.node.getEntry(routingKey, type);
      } catch (ValueRefusedException e) {
        policy.succeeded(from, false, failuresBefore);
        refused(from);
        continue;
      } catch (RuntimeException e) {
        policy.failed(from, e, false);
        stats.error();
        continue;
      }
      policy.succeeded(from, false, failuresBefore);
      if (entry == null) {
        continue;
      }
      stats.migrationHit();
      from.stats.migrationHit();
      Duration left = entry.ttl() != null ? entry.ttl() : ttl;
      if (fill(new Route(r, target), routingKey, entry.value(), stamp, left)) {
        stats.migrationCopy();
        target.stats.migrationCopy();
      }
      return entry.value();
    }
    return null;
  }

  /**
   * Deletes the key on its owners in the prior rings that still matter, after a write of it landed
   * on its target, so no older copy is left where a later miss or a move back would read it. A
   * delete that fails marks the copy unknown there.
   */
  private void deletePriors(Routing r, NodeSlot target, String routingKey) {
    if (r.priors.isEmpty()) {
      return;
    }
    List<NodeSlot> done = new ArrayList<>(2);
    for (Prior prior : r.priors) {
      NodeSlot from = prior.home(routingKey);
      if (from == target || done.contains(from)) {
        continue;
      }
      done.add(from);
      if (from.ejected) {
        if (keepOnRejoin) {
          policy.unknownCopy(from, routingKey); // emptied on rejoin with flush
        }
        continue;
      }
      int failuresBefore = from.failureTotal.get();
      try {
        from.node.evict(routingKey);
        policy.succeeded(from, true, failuresBefore);
        from.marks.forget(routingKey);
      } catch (RuntimeException e) {
        stats.error();
        policy.unknownCopy(from, routingKey);
        policy.failed(from, e, true);
      }
    }
  }

  /** The sync winner's second look: counts nothing, and skips a node that just failed. */
  private Object readUncounted(Route route, String routingKey, ValueType type) {
    NodeSlot target = route.target;
    if (target == null || target.justFailed() || !route.routing.readable(target, routingKey)) {
      return null;
    }
    int failuresBefore = target.failureTotal.get();
    try {
      Object value = target.node.get(routingKey, type);
      policy.succeeded(target, false, failuresBefore);
      return value;
    } catch (ValueRefusedException e) {
      refused(target);
      return null;
    } catch (RuntimeException e) {
      policy.failed(target, e, false);
      stats.error();
      return null;
    }
  }

  private <V> V loadAndFill(
      Route route, String routingKey, ValueLoader<V> loader, boolean cacheNull) throws Throwable {
    long stamp = stamps.stamp(routingKey);
    NodeSlot owner = route.target;
    V value;
    try {
      value = loader.load();
    } catch (Throwable t) {
      loadFailed(owner);
      throw t;
    }
    loaded(owner);
    if (value != null || cacheNull) {
      fill(current(route, routingKey), routingKey, NullValue.wrap(value), stamp, ttl);
    }
    return value;
  }

  private void loaded(NodeSlot owner) {
    stats.load();
    if (owner != null) {
      owner.stats.load();
    }
  }

  private void loadFailed(NodeSlot owner) {
    stats.loadFailure();
    if (owner != null) {
      owner.stats.loadFailure();
    }
  }

  /**
   * Stores a loaded value unless a write of the key began since the load did; if one began while
   * the fill ran, deletes the key again, since the fill may have landed after that write.
   */
  private boolean fill(Route route, String routingKey, Object stored, long stamp, Duration ttl) {
    if (stamps.stamp(routingKey) != stamp) {
      return false;
    }
    if (!write(route, routingKey, stored, true, 0, ttl)) {
      return false;
    }
    if (stamps.stamp(routingKey) != stamp) {
      write(route(routingKey), routingKey, null, false, 0, null);
      return false;
    }
    return true;
  }

  /**
   * A put, evict or clear starts: loads under way must not fill, nor be joined by later callers.
   */
  private void beginWrite(String routingKey) {
    stamps.advance(routingKey);
    inFlight.forget(routingKey);
  }

  /** Most times a write follows the key to a new target while the routing keeps changing. */
  private static final int MAX_RECONCILES = 3;

  /**
   * Writes {@code stored} (null: deletes the key) on the route's target.
   *
   * <p>{@code optional} writes (fills after a miss) are skipped while the target's last operation
   * failed: the caller has usually just waited out that node's timeout on the read, and must not
   * wait a second time for a write that is only an optimisation. A copy written away from the key's
   * home is marked first (so it is never untracked), lives at most {@code failover.fallbackTtl},
   * and, with {@code onRejoin: keep}, marks the key unknown on the home.
   *
   * @return whether the write reached the node
   */
  private boolean write(
      Route route, String routingKey, Object stored, boolean optional, int depth, Duration ttl) {
    Routing r = route.routing;
    NodeSlot target = route.target;
    if (target == null) {
      if (keepOnRejoin) {
        policy.unknownCopy(r.home(routingKey), routingKey); // every node is out
      }
      return false;
    }
    if (optional && target.justFailed()) {
      return false;
    }
    NodeSlot home = r.degraded ? r.home(routingKey) : target;
    boolean atHome = home == target;
    if (!atHome && stored != null) {
      if (!target.marks.beginOffHomeWrite(routingKey)) {
        policy.trackingFull();
        return false;
      }
      if (keepOnRejoin) {
        policy.unknownCopy(home, routingKey);
      }
    }
    int failuresBefore = target.failureTotal.get();
    try {
      if (stored == null) {
        target.node.evict(routingKey);
      } else {
        target.node.put(routingKey, stored, atHome ? ttl : offHomeTtl(ttl));
      }
    } catch (ValueRefusedException e) {
      refused(target);
      write(route, routingKey, null, false, depth, null); // the old value must not stay readable
      return false;
    } catch (RuntimeException e) {
      stats.error();
      policy.unknownCopy(target, routingKey);
      policy.failed(target, e, true);
      return false;
    }
    policy.succeeded(target, true, failuresBefore);
    if (stored == null || atHome) {
      target.marks.forget(routingKey);
    } else {
      target.marks.written(routingKey, r.generation);
    }
    if (stored != null) {
      stats.put();
      target.stats.put();
    }
    deletePriors(r, target, routingKey);
    Routing now = router.current();
    if (now != r && !now.closed && depth < MAX_RECONCILES) {
      // The generation ended while we wrote: the key's readers may look elsewhere now.
      NodeSlot next = now.target(routingKey);
      if (next != null && next != target) {
        write(new Route(now, next), routingKey, null, false, depth + 1, null);
      }
    }
    return true;
  }

  /** The TTL of a copy away from its key's home: at most {@code failover.fallbackTtl}. */
  private Duration offHomeTtl(Duration ttl) {
    return ttl == null || ttl.compareTo(fallbackTtl) > 0 ? fallbackTtl : ttl;
  }

  private void miss(NodeSlot target) {
    stats.miss();
    if (target != null) {
      target.stats.miss();
    }
  }

  private void refused(NodeSlot target) {
    stats.refused();
    target.stats.refused();
  }
}
