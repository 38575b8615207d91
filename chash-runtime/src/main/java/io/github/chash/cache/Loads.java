package io.github.chash.cache;

import io.github.chash.internal.cache.FutureLoader;
import io.github.chash.internal.cache.NullValue;
import io.github.chash.internal.cache.ValueLoader;
import io.github.chash.ring.RoutingKey;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The loads of one cache after a miss: the loader runs (once per key and JVM with {@code sync}),
 * and its value is filled in unless a write of the key began since the load did ({@link
 * KeyStripes}), so a slow load never overwrites a newer write.
 */
final class Loads {
  /**
   * The threads refresh-ahead reloads run on by default: daemons, at most two per core, gone after
   * a minute idle, with at most 1,024 reloads waiting; a reload beyond that is skipped (the key
   * reloads on its next hit in the window, or on expiry), so a burst of hot keys cannot pile up
   * threads or memory. At most one reload per key runs at a time in a JVM.
   */
  static final ExecutorService REFRESHES = refreshPool();

  private static ExecutorService refreshPool() {
    int threads = 2 * Runtime.getRuntime().availableProcessors();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            1,
            TimeUnit.MINUTES,
            new ArrayBlockingQueue<>(1024),
            task -> {
              Thread t = new Thread(task, "chash-refresh");
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  private final Router router;
  private final String name;
  private final Duration ttl;
  private final Reads reads;
  private final Writes writes;
  private final KeyStripes stripes;
  private final InFlightLoads inFlight;
  private final StatsCounter stats;
  private final Executor refreshes;

  /** How long a sync load waits for another JVM's fill; shared with the cache's ttl views. */
  final LeaseWait leaseWait;

  Loads(
      String name,
      Duration ttl,
      Router router,
      Reads reads,
      Writes writes,
      KeyStripes stripes,
      InFlightLoads inFlight,
      StatsCounter stats,
      Executor refreshes,
      LeaseWait leaseWait) {
    this.name = name;
    this.ttl = ttl;
    this.router = router;
    this.reads = reads;
    this.writes = writes;
    this.stripes = stripes;
    this.inFlight = inFlight;
    this.stats = stats;
    this.refreshes = refreshes;
    this.leaseWait = leaseWait;
  }

  /**
   * Refresh-ahead: a hit found the key within the last part of its TTL ({@code windowNanos} left or
   * less). Starts one reload of the key in the background unless a load of it is running in this
   * JVM; the caller does not wait. The reload is a load like any other: it looks again first (a
   * reload may have landed since the caller read), and its value is filled only if no write of the
   * key began since it started ({@link KeyStripes}), through the write path with a fresh TTL. A
   * reload whose fill found the entry it refreshed replaced is marked overtaken, as a load whose
   * lease is gone: the callers that missed and joined it share one more load ({@link
   * InFlightLoads#takes}), never its value, which another JVM's write or evict may have outdated.
   */
  <V> void refresh(
      NodeSlot owner,
      RoutingKey routingKey,
      ValueType type,
      ValueLoader<V> loader,
      boolean cacheNull,
      long windowNanos) {
    InFlightLoads.Load mine = InFlightLoads.Load.future();
    if (inFlight.joinOrStart(routingKey.text(), mine) != null) {
      return; // a load or reload of the key is running: it is the one reload
    }
    Runnable reload =
        () -> {
          Object stored;
          try {
            Routing r = router.forCache(name);
            CacheNode.StoredEntry now =
                reads.readEntryUncounted(r, r.target(routingKey), routingKey, type);
            stored =
                now != null && (now.ttl() == null || now.ttl().toNanos() > windowNanos)
                    ? now.value() // refreshed since the caller read it
                    : NullValue.wrap(
                        loadAndFill(
                            owner,
                            routingKey,
                            loader,
                            cacheNull,
                            refreshStart(routingKey, type),
                            mine));
          } catch (Throwable t) {
            inFlight.settleExceptionally(routingKey.text(), mine, t);
            return;
          }
          inFlight.settle(routingKey.text(), mine, stored);
        };
    try {
      refreshes.execute(reload);
    } catch (RejectedExecutionException e) {
      // no reload this time; a later hit tries again
      inFlight.settleExceptionally(routingKey.text(), mine, e);
    }
  }

  /**
   * Loads the key after a miss; with {@code sync}, one caller per key and JVM runs the loader, and
   * the callers that miss meanwhile join its load. A caller that joined a load another JVM's write
   * may have overtaken joins or starts one more, and takes that one's outcome ({@link
   * InFlightLoads#takes}): at most two rounds, and a herd of joiners still runs one load.
   */
  <V> V load(
      NodeSlot owner,
      RoutingKey routingKey,
      ValueType type,
      ValueLoader<V> loader,
      boolean sync,
      boolean cacheNull)
      throws Throwable {
    if (!sync) {
      return loadAndFill(owner, routingKey, loader, cacheNull);
    }
    for (boolean rejoined = false; ; rejoined = true) {
      InFlightLoads.Load mine = InFlightLoads.Load.blocking();
      InFlightLoads.Load running = inFlight.joinOrStart(routingKey.text(), mine);
      if (running == null) {
        return lead(owner, routingKey, type, loader, cacheNull, mine);
      }
      Object shared = InFlightLoads.await(routingKey.text(), running);
      if (InFlightLoads.takes(running, rejoined)) {
        return NullValue.unwrapAs(shared);
      }
    }
  }

  /**
   * The sync load {@code mine}, registered: looks at the key again first (a load may have filled it
   * since this caller's miss, or the fill of an overtaken load whose outcome was unknown may have
   * landed), else loads and fills; while another JVM's load holds the key's lease, it waits a
   * little for that load's fill first ({@link #leaseOrFilled}). Unregisters the load before
   * completing it, so that a joiner that wakes to find it overtaken joins or starts a newer one.
   */
  private <V> V lead(
      NodeSlot owner,
      RoutingKey routingKey,
      ValueType type,
      ValueLoader<V> loader,
      boolean cacheNull,
      InFlightLoads.Load mine)
      throws Throwable {
    Object stored;
    try {
      stored = secondLook(routingKey, type);
      if (stored == null) {
        Start start = leaseOrFilled(routingKey, type);
        stored =
            start.filled != null
                ? start.filled
                : NullValue.wrap(loadAndFill(owner, routingKey, loader, cacheNull, start, mine));
      }
    } catch (Throwable t) {
      inFlight.settleExceptionally(routingKey.text(), mine, t);
      throw t;
    }
    inFlight.settle(routingKey.text(), mine, stored);
    return NullValue.unwrapAs(stored);
  }

  /** {@link #load} for a loader that returns a future: the completed value is filled. */
  <V> CompletionStage<V> loadFuture(
      RoutingKey routingKey,
      ValueType type,
      FutureLoader<V> loader,
      boolean sync,
      Predicate<? super V> storable)
      throws Throwable {
    NodeSlot owner = router.forCache(name).target(routingKey);
    if (!sync) {
      return loadFutureAndFill(owner, routingKey, loader, storable, null);
    }
    return joinOrLoadFuture(owner, routingKey, type, loader, storable, false);
  }

  /** One round of a sync {@link #loadFuture}: the rule of {@link #load}'s rounds. */
  private <V> CompletionStage<V> joinOrLoadFuture(
      NodeSlot owner,
      RoutingKey routingKey,
      ValueType type,
      FutureLoader<V> loader,
      Predicate<? super V> storable,
      boolean rejoined)
      throws Throwable {
    InFlightLoads.Load mine = InFlightLoads.Load.future();
    InFlightLoads.Load running = inFlight.joinOrStart(routingKey.text(), mine);
    if (running != null) {
      // a blocking load or a future's: either completes with the stored form
      return running.thenCompose(
          shared -> {
            if (InFlightLoads.takes(running, rejoined)) {
              return CompletableFuture.completedFuture(NullValue.<V>unwrapAs(shared));
            }
            try {
              CompletionStage<V> again =
                  joinOrLoadFuture(owner, routingKey, type, loader, storable, true);
              return again != null ? again : CompletableFuture.completedFuture(null);
            } catch (Throwable t) {
              return CompletableFuture.failedFuture(t);
            }
          });
    }
    try {
      Object stored = secondLook(routingKey, type);
      if (stored != null) {
        inFlight.settle(routingKey.text(), mine, stored);
        return CompletableFuture.completedFuture(NullValue.<V>unwrapAs(stored));
      }
      return loadFutureAndFill(owner, routingKey, loader, storable, mine);
    } catch (Throwable t) {
      inFlight.settleExceptionally(routingKey.text(), mine, t);
      throw t;
    }
  }

  /**
   * Loads the missing keys with one call of {@code loader} and fills them in one request per node,
   * under the same rule as a single fill. Returns what the loader returned, by routing key; counts
   * one load (as Caffeine's bulk load).
   */
  Map<String, Object> loadAll(Collection<String> missing, RoutedCache.BulkLoader loader) {
    Map<String, Long> stampsBefore = new LinkedHashMap<>();
    missing.forEach(key -> stampsBefore.put(key, stripes.stamp(key)));
    Map<String, Object> loaded;
    long started = stats.startTime();
    try {
      loaded = loader.load(missing);
    } catch (RuntimeException | Error e) {
      loadFailed(null, started);
      throw e;
    }
    loaded(null, started);
    Map<String, Long> filled = new LinkedHashMap<>();
    loaded.forEach(
        (key, value) -> {
          Long stamp = stampsBefore.get(key);
          if (value != null && stamp != null) {
            filled.put(key, stamp);
          }
        });
    stripes.fillAllIfUnchanged(
        filled,
        unchanged -> {
          Map<String, Object> values = new LinkedHashMap<>();
          unchanged.forEach(key -> values.put(key, loaded.get(key)));
          return writes.writeAll(router.forCache(name), values, true);
        });
    return loaded;
  }

  /** The sync winner's look at the key once registered: counts nothing. */
  private Object secondLook(RoutingKey routingKey, ValueType type) {
    Routing r = router.forCache(name);
    return reads.readUncounted(r, r.target(routingKey), routingKey, type);
  }

  private <V> V loadAndFill(
      NodeSlot owner, RoutingKey routingKey, ValueLoader<V> loader, boolean cacheNull)
      throws Throwable {
    return loadAndFill(owner, routingKey, loader, cacheNull, leaseStart(routingKey), null);
  }

  /**
   * How a load begins: the stamp of the writes begun in this JVM before it ({@link KeyStripes}),
   * taken before its lease, and the lease its fill needs; or, instead of a start, what another
   * JVM's load filled while this one waited for it.
   */
  private record Start(long stamp, Writes.Lease lease, Object filled) {}

  private Start leaseStart(RoutingKey routingKey) {
    long stamp = stripes.stamp(routingKey.text());
    return new Start(stamp, writes.lease(routingKey), null);
  }

  /** A refresh's start: its fill must find the entry it refreshes ({@link Writes#seen}). */
  private Start refreshStart(RoutingKey routingKey, ValueType type) {
    long stamp = stripes.stamp(routingKey.text());
    return new Start(stamp, writes.seen(routingKey, type), null);
  }

  /**
   * The start of a sync load; while the key's target answers that it holds another load's lease (or
   * a value that landed since the look before), looks at the key again every step of a {@link
   * LeaseWait}, and returns the stored value it finds there instead. A look after the wait is a
   * read like any other, so it serves nothing older than a write completed before it.
   */
  private Start leaseOrFilled(RoutingKey routingKey, ValueType type) {
    Start start = leaseStart(routingKey);
    if (start.lease != Writes.Lease.BUSY) {
      return start;
    }
    LeaseWait.Waiting waiting = leaseWait.begin();
    while (start.lease == Writes.Lease.BUSY && waiting.pause()) {
      Object filled = secondLook(routingKey, type);
      if (filled != null) {
        stats.leaseWaitServed();
        return new Start(0, Writes.Lease.NONE, filled);
      }
      start = leaseStart(routingKey);
    }
    if (start.lease == Writes.Lease.BUSY) {
      stats.leaseWaitExpired();
    }
    return start;
  }

  /**
   * Loads and fills under the start's lease (see {@link Writes#lease}); a refresh's start instead
   * fills only if the entry it refreshes is still there. Marks the {@code shared} load (if any)
   * overtaken when its fill found its lease gone.
   */
  private <V> V loadAndFill(
      NodeSlot owner,
      RoutingKey routingKey,
      ValueLoader<V> loader,
      boolean cacheNull,
      Start start,
      InFlightLoads.Load shared)
      throws Throwable {
    long stamp = start.stamp;
    Writes.Lease lease = start.lease;
    V value;
    long started = stats.startTime();
    long began = leaseWait.now();
    try {
      value = loader.load();
    } catch (Throwable t) {
      loadFailed(owner, started);
      writes.release(routingKey, lease);
      throw t;
    } finally {
      leaseWait.loaded(began);
    }
    loaded(owner, started);
    if (value != null || cacheNull) {
      boolean landed = writes.fill(routingKey, NullValue.wrap(value), stamp, lease);
      if (shared != null && lease.overtakenUnless(landed)) {
        shared.overtaken = true;
      }
    } else {
      writes.release(routingKey, lease);
    }
    return value;
  }

  /**
   * Starts the future and, when it completes, stores its value as a fill would: not when a write of
   * the key began after the start, so a slow future never overwrites a newer put.
   */
  private <V> CompletionStage<V> loadFutureAndFill(
      NodeSlot owner,
      RoutingKey routingKey,
      FutureLoader<V> loader,
      Predicate<? super V> storable,
      InFlightLoads.Load shared)
      throws Throwable {
    Start start = leaseStart(routingKey);
    long stamp = start.stamp;
    Writes.Lease lease = start.lease;
    CompletionStage<V> future;
    long started = stats.startTime();
    try {
      future = loader.start();
    } catch (Throwable t) {
      loadFailed(owner, started);
      writes.release(routingKey, lease);
      throw t;
    }
    if (future == null) {
      writes.release(routingKey, lease);
      // the method's own result, handed back as it is; callers sharing the load learn why
      if (shared != null) {
        inFlight.settleExceptionally(
            routingKey.text(),
            shared,
            new NullPointerException(
                "the loader of key \"" + routingKey + "\" returned no future"));
      }
      return null;
    }
    future.whenComplete(
        (value, failure) -> {
          try {
            if (failure != null) {
              loadFailed(owner, started);
              writes.release(routingKey, lease);
            } else {
              loaded(owner, started);
              if (storable.test(value)) {
                boolean landed = writes.fill(routingKey, NullValue.wrap(value), stamp, lease);
                if (shared != null && lease.overtakenUnless(landed)) {
                  shared.overtaken = true;
                }
              } else {
                writes.release(routingKey, lease);
              }
            }
          } finally {
            if (shared != null && failure == null) {
              inFlight.settle(routingKey.text(), shared, NullValue.wrap(value));
            } else if (shared != null) {
              inFlight.settleExceptionally(
                  routingKey.text(), shared, InFlightLoads.unwrap(failure));
            }
          }
        });
    return future;
  }

  private void loaded(NodeSlot owner, long started) {
    stats.loadTimed(started, true);
    stats.load();
    if (owner != null) {
      owner.stats.load();
    }
  }

  private void loadFailed(NodeSlot owner, long started) {
    stats.loadTimed(started, false);
    stats.loadFailure();
    if (owner != null) {
      owner.stats.loadFailure();
    }
  }
}
