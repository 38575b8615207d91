package io.github.chash.cache;

import io.github.chash.config.CacheConfig;
import io.github.chash.internal.cache.FutureLoader;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.NullValue;
import io.github.chash.internal.cache.ValueLoader;
import io.github.chash.ring.RoutingKey;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/**
 * A {@link ShardedCache} that routes each key through the manager's {@link Router}: the facade over
 * the cache's read path ({@link Reads}), write path ({@link Writes}), migration between owners
 * ({@link Migration}) and loads ({@link Loads}), every node call made through {@link NodeCalls}.
 * The rules that keep reads from returning values older than the last completed write are stated in
 * those classes and in the operations guide's protocol section.
 */
final class RoutedCache implements InterceptedCache {
  private final CacheConfig config;
  private final String name;
  private final String prefix;

  /** {@link #prefix} as a routing key, which every key of the cache continues ({@link #key}). */
  private final RoutingKey prefixKey;

  private final Duration ttl;
  private final StatsCounter stats;
  private final HitCounts hits;
  private final Router router;
  private final FailurePolicy policy;
  private final InFlightLoads inFlight;
  private final KeyStripes stripes;
  private final Lifetimes lifetimes;
  private final NodeCalls calls;
  private final Writes writes;
  private final Reads reads;
  private final Loads loads;
  private final java.util.concurrent.Executor refreshes;

  /** A hit with this much time left or less starts a reload (refresh-ahead); 0: never. */
  private final long refreshWindowNanos;

  /** {@link #refreshWindowNanos} of a cached null, which lives {@code nullTtl}. */
  private final long nullRefreshWindowNanos;

  /** A verbatim cache's keys for its clear ({@link WrittenKeys}); null for a prefixed cache. */
  private final WrittenKeys written;

  /** The cache's near cache in this JVM ({@code near:}); null for none. */
  private final NearCache near;

  /**
   * @param written the keys a verbatim cache wrote, for its clear ({@link WrittenKeys#of}); null
   *     for a prefixed cache
   * @param near the cache's near cache, or null for none
   * @param leaseWait how long a sync load waits for another JVM's fill of the key
   */
  RoutedCache(
      CacheConfig config,
      StatsCounter stats,
      HitCounts hits,
      Router router,
      FailurePolicy policy,
      InFlightLoads inFlight,
      KeyStripes stripes,
      Lifetimes lifetimes,
      java.util.concurrent.Executor refreshes,
      WrittenKeys written,
      NearCache near,
      LeaseWait leaseWait) {
    this.config = config;
    this.near = near;
    this.name = config.name();
    this.written = written;
    this.prefix = config.verbatim() ? VerbatimKeys.prefix(name) : name + ":";
    this.prefixKey = RoutingKey.of(prefix);
    this.ttl = config.ttl();
    this.stats = stats;
    this.hits = hits;
    this.router = router;
    this.policy = policy;
    this.inFlight = inFlight;
    this.stripes = stripes;
    this.lifetimes = lifetimes;
    this.calls = new NodeCalls(policy, stats, near);
    Migration migration = new Migration(router, policy, calls, stats);
    this.writes = new Writes(config, lifetimes, router, policy, calls, migration, stripes, stats);
    this.reads =
        new Reads(
            name, this.ttl, router, policy, calls, migration, writes, stripes, stats, hits, near);
    this.refreshes = refreshes;
    this.loads =
        new Loads(
            name, this.ttl, router, reads, writes, stripes, inFlight, stats, refreshes, leaseWait);
    this.refreshWindowNanos = window(config.ttl(), config.refreshAhead());
    this.nullRefreshWindowNanos =
        window(config.nullTtl() != null ? config.nullTtl() : config.ttl(), config.refreshAhead());
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
  public InterceptedCache withTtl(Duration methodTtl) {
    // a verbatim cache's keys expire, never swept: a method without a ttl keeps the cache's
    Duration ttl = config.verbatim() && methodTtl == null ? config.ttl() : methodTtl;
    // the method's ttl with the cache's other settings, each kept within the new ttl's rules: no
    // jitter or refresh without a ttl, and nulls never outliving values
    Duration nullTtl =
        config.nullTtl() != null && ttl != null && config.nullTtl().compareTo(ttl) > 0
            ? ttl
            : config.nullTtl();
    CacheConfig withTtl =
        new CacheConfig(
            name,
            ttl,
            ttl == null ? 0 : config.jitter(),
            ttl == null ? 0 : config.refreshAhead(),
            nullTtl,
            config.keys(),
            config.codec(),
            config.near());
    return new RoutedCache(
        withTtl,
        stats,
        hits,
        router,
        policy,
        inFlight,
        stripes,
        lifetimes,
        refreshes,
        written,
        near,
        loads.leaseWait);
  }

  private static long window(Duration ttl, double part) {
    if (ttl == null || part == 0) {
      return 0;
    }
    try {
      return (long) (ttl.toNanos() * part);
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public <V> TypedCache<Object, V> typed(Class<V> valueType) {
    return new TypedView<>(this, Object.class, ValueType.of(valueType));
  }

  @Override
  public <K, V> TypedCache<K, V> typed(Class<K> keyType, Class<V> valueType) {
    return new TypedView<>(this, keyType, ValueType.of(valueType));
  }

  @Override
  public String routingKey(Object key, String where) {
    String text = verbatimText(key);
    return text != null ? prefix.concat(text) : CanonicalKeys.prefixed(prefix, key, where);
  }

  @Override
  public RoutingKey keyOfArguments(Object[] args, String method, String[] parameterNames) {
    String text = args.length == 1 ? verbatimText(args[0]) : null;
    return prefixKey.concat(
        text != null ? text : CanonicalKeys.ofArguments(args, method, parameterNames));
  }

  @Override
  public RoutingKey key(Object key, String where) {
    String text = verbatimText(key);
    return text != null ? prefixKey.concat(text) : CanonicalKeys.routingKey(prefixKey, key, where);
  }

  /**
   * {@return a verbatim cache's text key as it is, or null when the key takes its canonical form} A
   * verbatim key is the peer client's key: never marked as a canonical text that reads as another
   * form is ({@link CanonicalKeys}), or {@code "[1]"} would be stored as {@code "\[1]"}, whichever
   * way the key is made (a key object, an expression, a method's only argument).
   */
  private String verbatimText(Object key) {
    return key instanceof String s && verbatim() ? s : null;
  }

  @Override
  public RoutingKey key(long key) {
    return prefixKey.concat(key);
  }

  @Override
  public Object getIfPresent(RoutingKey routingKey, ValueType type) {
    Routing r = router.forCache(name);
    // the near cache first: a hit there needs no ring lookup
    Object kept = near == null ? null : near.value(r, routingKey.text(), type, stats);
    if (kept != null) {
      return kept;
    }
    return reads.read(r, r.target(routingKey), routingKey, type);
  }

  @Override
  public <V> V get(
      RoutingKey routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable {
    Routing r = router.forCache(name);
    NodeSlot target = null; // looked up only when a node is called: a near hit needs no ring
    Object cached;
    if (refreshWindowNanos == 0) {
      cached = near == null ? null : near.value(r, routingKey.text(), type, stats);
      if (cached == null) {
        target = r.target(routingKey);
        cached = reads.read(r, target, routingKey, type);
      }
    } else {
      CacheNode.StoredEntry entry =
          near == null ? null : near.entry(r, routingKey.text(), type, stats);
      if (entry == null) {
        target = r.target(routingKey);
        entry = reads.readEntry(r, target, routingKey, type);
      }
      cached = entry == null ? null : entry.value();
      long window = cached == NullValue.INSTANCE ? nullRefreshWindowNanos : refreshWindowNanos;
      if (entry != null && entry.ttl() != null && entry.ttl().toNanos() <= window) {
        target = target != null ? target : r.target(routingKey);
        loads.refresh(target, routingKey, type, loader, cacheNull, window);
      }
    }
    if (cached != null) {
      return NullValue.unwrapAs(cached);
    }
    target = target != null ? target : r.target(routingKey);
    mayWrite(routingKey);
    return loads.load(target, routingKey, type, loader, sync, cacheNull);
  }

  @Override
  public <V> V load(
      RoutingKey routingKey, ValueType type, ValueLoader<V> loader, boolean sync, boolean cacheNull)
      throws Throwable {
    NodeSlot owner = router.forCache(name).target(routingKey);
    mayWrite(routingKey);
    return loads.load(owner, routingKey, type, loader, sync, cacheNull);
  }

  @Override
  public <V> CompletionStage<V> loadFuture(
      RoutingKey routingKey,
      ValueType type,
      FutureLoader<V> loader,
      boolean sync,
      Predicate<? super V> storable)
      throws Throwable {
    mayWrite(routingKey);
    return loads.loadFuture(routingKey, type, loader, sync, storable);
  }

  @Override
  public void put(RoutingKey routingKey, Object value) {
    mayWrite(routingKey);
    beginWrite(routingKey);
    writes.write(router.forCache(name), routingKey, NullValue.wrap(value), false);
  }

  /**
   * Deletes the key on its target and, when that is the key's home, on the home's first stand-in
   * too, where another JVM that ejected the home earlier may have written a copy.
   */
  @Override
  public void evict(RoutingKey routingKey) {
    beginWrite(routingKey);
    stats.eviction();
    Routing r = router.forCache(name);
    writes.write(r, routingKey, null, false);
    NodeSlot target = r.target(routingKey);
    if (target != null && r.home(routingKey) == target) {
      NodeSlot standIn = r.standIn(routingKey, target);
      if (standIn != null
          && calls.write(standIn, routingKey, null, null) == NodeCalls.Outcome.LANDED) {
        standIn.marks.forget(routingKey.text());
      }
    }
  }

  /**
   * Removes this cache's entries from every serving node. A node that is out is cleared before it
   * serves again: emptied ({@code onRejoin: flush}) or cleared of this cache ({@code keep}); a
   * serving node whose clear fails is ejected and emptied before it rejoins. A verbatim cache,
   * whose keys cannot be listed apart from another application's, deletes the keys it wrote in this
   * JVM ({@link WrittenKeys}), each as {@link #evict} does.
   */
  @Override
  public void clear() {
    if (written != null) {
      // its keys cannot be listed apart from other applications': only those written here go
      written.drain().forEach(key -> evict(RoutingKey.of(key)));
      return;
    }
    stripes.beginWriteOfAll();
    inFlight.forgetStartingWith(prefix);
    if (near != null) {
      near.invalidateAll();
    }
    try {
      clearNodes();
    } finally {
      if (near != null) {
        near.invalidateAll(); // a read under way may have filled from a node not yet cleared
      }
    }
  }

  private void clearNodes() {
    Routing r = router.forCache(name);
    for (NodeSlot slot : r.reachableSlots()) {
      if (policy.clearWhenBack(slot, prefix)) {
        continue; // out: cleared before it serves again
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

  /** Reads many keys; see {@link Reads#getAllPresent}. */
  Map<String, Object> getAllPresent(Collection<String> routingKeys, ValueType type) {
    return reads.getAllPresent(routingKeys, type);
  }

  /** Stores many values: one request per node, every request sent before any is awaited. */
  void putAll(Map<String, Object> values) {
    values.keySet().forEach(this::mayWrite);
    values.keySet().forEach(this::beginWrite);
    Map<String, Object> wrapped = new LinkedHashMap<>();
    values.forEach((key, value) -> wrapped.put(key, NullValue.wrap(value)));
    writes.writeAll(router.forCache(name), wrapped, false);
  }

  /** Loads the missing keys with one call of {@code loader}; see {@link Loads#loadAll}. */
  Map<String, Object> loadAll(Collection<String> missing, BulkLoader loader) {
    missing.forEach(this::mayWrite);
    return loads.loadAll(missing, loader);
  }

  /** The bulk loader of {@link #loadAll}: routing keys in, values by routing key out. */
  @FunctionalInterface
  interface BulkLoader {
    Map<String, Object> load(Collection<String> routingKeys);
  }

  /** The manager's key stripes, for a test's scheduler. */
  KeyStripes stripes() {
    return stripes;
  }

  /** The cache's running loads, for a test that waits until callers have joined one. */
  InFlightLoads inFlight() {
    return inFlight;
  }

  /** Makes room in the per-node hit counters for node indexes below {@code nodes}. */
  void ensureNodes(int nodes) {
    hits.ensure(nodes);
  }

  /** Whether the cache is verbatim ({@link VerbatimKeys}). */
  boolean verbatim() {
    return written != null;
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
    long nearHits = near == null ? 0 : near.hits();
    return stats.snapshot(hits.total() + nearHits, nearHits);
  }

  @Override
  public String toString() {
    return "ShardedCache{name=" + name + ", ttl=" + ttl + "}";
  }

  /** A verbatim cache's key may be written: its clear must delete it. */
  private void mayWrite(RoutingKey routingKey) {
    if (written != null) {
      written.add(routingKey.text());
    }
  }

  private void mayWrite(String routingKey) {
    if (written != null) {
      written.add(routingKey);
    }
  }

  /**
   * A put, evict or clear starts: loads under way must not fill, nor be joined by later callers.
   */
  private void beginWrite(RoutingKey routingKey) {
    beginWrite(routingKey.text());
  }

  private void beginWrite(String routingKey) {
    stripes.beginWrite(routingKey);
    inFlight.forget(routingKey);
    if (near != null) {
      near.invalidate(routingKey); // also when no node is called: every node may be out
    }
  }
}
