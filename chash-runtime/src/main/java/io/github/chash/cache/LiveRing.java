package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The failure policy: counts consecutive failures per node, ejects a node from the live ring after
 * {@code failureLimit} of them, and readmits it after {@code retryAfter} once its probe answers
 * (clearing it first when {@code onRejoin: flush}). Readers see an immutable {@link Routing}
 * through one volatile read; changes rebuild it under a lock.
 */
final class LiveRing {
  private static final System.Logger LOG = System.getLogger(LiveRing.class.getName());

  private final RingSettings settings;
  private final Map<String, NodeSlot> slots;
  private final FailoverConfig failover;
  private final Ticker ticker;
  private final boolean scheduleProbes;

  /** Max keys remembered in {@link #displaced}. */
  static final int MAX_DISPLACED_WRITES = 100_000;

  private volatile Routing routing;

  /**
   * Keys written, while a node was out, to a node other than their configured owner, and where.
   * When a node rejoins, copies whose holder no longer owns the key are evicted: later writes go
   * elsewhere, so they would turn stale and be served at the next outage.
   */
  private final Map<String, NodeSlot> displaced = new ConcurrentHashMap<>();

  private volatile boolean displacedOverflowed;
  private ScheduledExecutorService prober; // created at the first ejection; guarded by this
  private boolean closed; // guarded by this

  LiveRing(
      RingSettings settings,
      Map<String, NodeSlot> slots,
      FailoverConfig failover,
      Ticker ticker,
      boolean scheduleProbes) {
    this.settings = settings;
    this.slots = slots;
    this.failover = failover;
    this.ticker = ticker;
    this.scheduleProbes = scheduleProbes;
    Ring all = Rings.create(settings, ringNodes(slots.values()));
    this.routing = new Routing(all, all, slots);
  }

  Routing routing() {
    return routing;
  }

  /**
   * The routing for an operation on a cache: the same volatile read as {@link #routing()}.
   *
   * @throws IllegalStateException once the manager is closed, naming the cache
   */
  Routing routingFor(String cache) {
    Routing r = routing;
    if (r.closed) {
      throw new IllegalStateException(
          "cache \"" + cache + "\" cannot be used: its ShardedCacheManager was closed");
    }
    return r;
  }

  /** Remembers that a key was written away from its configured owner while the ring is degraded. */
  void displacedWrite(String routingKey, NodeSlot holder) {
    if (displaced.size() < MAX_DISPLACED_WRITES) {
      displaced.put(routingKey, holder);
    } else {
      displacedOverflowed = true;
    }
  }

  /** A node answered: its failure streak ends. Read-only when there was none (the hot path). */
  void succeeded(NodeSlot slot) {
    if (slot.consecutiveFailures.get() != 0) {
      slot.consecutiveFailures.set(0);
    }
  }

  /** A node failed: counts it and ejects the node at {@code failureLimit} failures in a row. */
  void failed(NodeSlot slot, RuntimeException e) {
    slot.stats.error();
    int streak = slot.consecutiveFailures.incrementAndGet();
    LOG.log(
        Level.DEBUG, () -> "cache node \"" + slot.id() + "\" failed (" + streak + " in a row)", e);
    if (streak >= failover.failureLimit() && !slot.ejected) {
      eject(slot, streak);
    }
  }

  private synchronized void eject(NodeSlot slot, int streak) {
    if (slot.ejected || closed) {
      return;
    }
    slot.ejected = true;
    slot.ejectedAtNanos = ticker.read();
    slot.stats.ejection();
    rebuild();
    LOG.log(
        Level.WARNING,
        "cache node \"{0}\" ejected from the live ring after {1} consecutive failures; retrying after {2}",
        slot.id(),
        streak,
        failover.retryAfter());
    scheduleProbe(slot, failover.retryAfter().toNanos());
  }

  /**
   * Probes every ejected node whose {@code retryAfter} has passed: a node that answers is cleared
   * (when {@code onRejoin: flush}) and readmitted; one that does not waits another {@code
   * retryAfter}. Runs on the probe thread; tests call it directly.
   */
  void probeDue() {
    for (NodeSlot slot : slots.values()) {
      if (remainingNanos(slot) == 0) {
        probe(slot);
      }
    }
  }

  /** Nanoseconds until the ejected node may be probed; 0 when due; -1 when it is not ejected. */
  private synchronized long remainingNanos(NodeSlot slot) {
    if (!slot.ejected) {
      return -1;
    }
    long waited = ticker.read() - slot.ejectedAtNanos;
    return Math.max(0, failover.retryAfter().toNanos() - waited);
  }

  private void probe(NodeSlot slot) {
    // One probe per node at a time: the scheduled one and a manual one must not both readmit.
    synchronized (slot) {
      if (remainingNanos(slot) == 0) {
        probeNow(slot);
      }
    }
  }

  private void probeNow(NodeSlot slot) {
    try {
      slot.node.ping();
      if (failover.onRejoin() == OnRejoin.FLUSH) {
        slot.node.clear();
      }
    } catch (RuntimeException e) {
      synchronized (this) {
        slot.ejectedAtNanos = ticker.read();
      }
      LOG.log(
          Level.INFO,
          "cache node \"{0}\" still failing its probe ({1}); retrying after {2}",
          slot.id(),
          e.getMessage(),
          failover.retryAfter());
      return;
    }
    synchronized (this) {
      slot.consecutiveFailures.set(0);
      slot.ejected = false;
      rebuild();
    }
    int evicted = evictDisplacedCopies();
    LOG.log(
        Level.WARNING,
        "cache node \"{0}\" readmitted to the live ring{1}; {2} copies written elsewhere during"
            + " the outage evicted",
        slot.id(),
        failover.onRejoin() == OnRejoin.FLUSH ? " after clearing its entries" : "",
        evicted);
  }

  /**
   * Evicts the copies written away from their owner whose holder no longer owns the key in the live
   * ring. Runs after the swap, so no new such copies appear behind it.
   */
  private int evictDisplacedCopies() {
    int evicted = 0;
    Routing now = routing;
    for (var it = displaced.entrySet().iterator(); it.hasNext(); ) {
      var copy = it.next();
      String key = copy.getKey();
      NodeSlot holder = copy.getValue();
      if (holder == now.liveOwner(key)) {
        continue; // still where readers look
      }
      displaced.remove(key, holder);
      if (holder.ejected) {
        continue; // flushed, or kept by choice, when it rejoins
      }
      try {
        holder.node.evict(key);
        succeeded(holder);
        evicted++;
      } catch (RuntimeException e) {
        failed(holder, e);
      }
    }
    if (!now.degraded) {
      displaced.clear();
    }
    if (displacedOverflowed) {
      displacedOverflowed = false;
      LOG.log(
          Level.WARNING,
          "more than {0} keys were written away from their owner during an outage; the copies"
              + " beyond that stay until their TTL and may be served if the owner fails again",
          MAX_DISPLACED_WRITES);
    }
    return evicted;
  }

  private void rebuild() {
    List<NodeSlot> live = new ArrayList<>();
    for (NodeSlot slot : slots.values()) {
      if (!slot.ejected) {
        live.add(slot);
      }
    }
    Routing old = routing;
    routing =
        new Routing(old.configured, Rings.create(settings, ringNodes(live)), slots, old.closed);
  }

  private synchronized void scheduleProbe(NodeSlot slot, long delayNanos) {
    if (!scheduleProbes || closed) {
      return;
    }
    if (prober == null) {
      ScheduledThreadPoolExecutor executor =
          new ScheduledThreadPoolExecutor(
              1,
              r -> {
                Thread t = new Thread(r, "chash-node-probe");
                t.setDaemon(true);
                return t;
              });
      executor.setRemoveOnCancelPolicy(true);
      prober = executor;
    }
    prober.schedule(() -> probeWhenDue(slot), delayNanos, TimeUnit.NANOSECONDS);
  }

  /** The scheduled task of one ejected node: probe it when due, else wait the rest. */
  private void probeWhenDue(NodeSlot slot) {
    try {
      long remaining = remainingNanos(slot);
      if (remaining == 0) {
        probe(slot);
        remaining = remainingNanos(slot);
      }
      if (remaining > 0) {
        scheduleProbe(slot, remaining);
      }
    } catch (RuntimeException e) {
      LOG.log(Level.ERROR, "probe of cache node \"" + slot.id() + "\" failed unexpectedly", e);
      scheduleProbe(slot, failover.retryAfter().toNanos());
    }
  }

  synchronized void close() {
    closed = true;
    Routing old = routing;
    routing = new Routing(old.configured, old.live, slots, true);
    if (prober != null) {
      prober.shutdownNow();
    }
  }

  private static List<Node> ringNodes(Collection<NodeSlot> slots) {
    List<Node> nodes = new ArrayList<>(slots.size());
    for (NodeSlot slot : slots) {
      nodes.add(slot.ringNode);
    }
    return nodes;
  }
}
