package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.node.ClientStalls;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The failure policy: counts each node's failures in a row, ejects a node after {@code
 * failureLimit} of them (or as many failed writes in a row, or when a write's outcome cannot be
 * tracked), and readmits it after {@code retryAfter} once its probe answers, first emptying it when
 * {@code onRejoin: flush}. An ejection or readmission publishes the next {@link Routing} at once
 * (O(nodes), no ring is rebuilt), so no caller waits for one.
 *
 * <p>A node that promotes a replica when its primary dies ({@link CacheNode#promotesReplica}, a
 * Sentinel-managed shard) is ejected for its failures only once they have also lasted {@code
 * failover.promotionWait}: a promotion takes seconds, and its keys then stay where they are rather
 * than move to stand-ins and back. Meanwhile its calls fail fast or within the timeout, and are
 * misses; a write that fails marks its key unknown there, as on any node, so no read finds an older
 * copy after the promotion.
 *
 * <p>After a readmission the probe thread deletes the copies written away from their home that the
 * new generation no longer trusts, so they do not linger until their TTL.
 */
final class FailurePolicy {
  private static final System.Logger LOG = System.getLogger(FailurePolicy.class.getName());

  private final Router router;
  private final FailoverConfig failover;
  private final Ticker ticker;
  private final boolean scheduleProbes;

  /** Told of ejections and readmissions with their causes; set once, before the first call. */
  CacheRecorder recorder = CacheRecorder.NONE;

  private ScheduledExecutorService prober; // created at the first ejection; guarded by this
  private boolean closed; // guarded by this

  FailurePolicy(Router router, FailoverConfig failover, Ticker ticker, boolean scheduleProbes) {
    this.router = router;
    this.failover = failover;
    this.ticker = ticker;
    this.scheduleProbes = scheduleProbes;
  }

  FailoverConfig config() {
    return failover;
  }

  /** The manager's clock ({@code Ticker} nanos): expiry, retry delays and migration windows. */
  long now() {
    return ticker.read();
  }

  /** Every node a routing may reach: the configured ones and those of prior rings. */
  private Collection<NodeSlot> slots() {
    return router.current().reachableSlots();
  }

  /**
   * A node answered a call that started when the node had failed {@code failuresBefore} times in
   * all ({@link NodeSlot#failureTotal}): its failure streak ends, unless a failure came while the
   * call ran (a reply sent before a server died must not restart the count of failures after it).
   * Read-only when there was no streak (the hot path).
   */
  void succeeded(NodeSlot slot, boolean write, int failuresBefore) {
    if (!slot.answered) {
      slot.answered = true;
    }
    if (slot.failureTotal.get() != failuresBefore) {
      return;
    }
    if (slot.consecutiveFailures.get() != 0) {
      slot.consecutiveFailures.set(0);
      slot.failingSince.set(NodeSlot.NO_STREAK);
      slot.heldIn = false;
      endOfStreaks(slot);
    }
    if (write && slot.consecutiveWriteFailures.get() != 0) {
      slot.consecutiveWriteFailures.set(0);
      slot.writesFailingSince.set(NodeSlot.NO_STREAK);
      endOfStreaks(slot);
    }
  }

  /** A streak ended: once none runs, the next wait for a promotion is logged again. */
  private static void endOfStreaks(NodeSlot slot) {
    if (slot.consecutiveFailures.get() == 0 && slot.consecutiveWriteFailures.get() == 0) {
      slot.awaitingPromotion = false;
    }
  }

  /**
   * A node failed: counts it, and ejects the node at {@code failureLimit} failures in a row, or as
   * many failed writes in a row even if reads in between succeeded (a server refusing writes); a
   * node that promotes a replica only once that streak has also lasted {@code promotionWait}.
   */
  void failed(NodeSlot slot, RuntimeException e, boolean write) {
    slot.stats.error();
    if (ClientStalls.isStall(e)) {
      // this JVM could not run for most of the call's wait: no evidence against the node
      LOG.log(Level.DEBUG, () -> "cache node \"" + slot.id() + "\" not read in time", e);
      return;
    }
    long now = ticker.read();
    slot.failureTotal.incrementAndGet();
    int streak = slot.consecutiveFailures.incrementAndGet();
    began(slot.failingSince, streak, now);
    int writeStreak = write ? slot.consecutiveWriteFailures.incrementAndGet() : 0;
    if (write) {
      began(slot.writesFailingSince, writeStreak, now);
    }
    LOG.log(
        Level.DEBUG, () -> "cache node \"" + slot.id() + "\" failed (" + streak + " in a row)", e);
    int limit = failover.failureLimit();
    if (slot.ejected || (streak < limit && writeStreak < limit)) {
      return;
    }
    long wait = promotionWaitNanos(slot);
    boolean calls = streak >= limit && lasted(slot.failingSince, now, wait);
    boolean writes = writeStreak >= limit && lasted(slot.writesFailingSince, now, wait);
    if (!calls && !writes) {
      awaitPromotion(slot, streak >= limit ? streak : writeStreak);
      return;
    }
    String why =
        calls
            ? "after " + streak + " consecutive failures"
            : "after " + writeStreak + " consecutive failed writes";
    if (wait > 0) {
      why += " lasting " + failover.promotionWait() + " or more";
    }
    if (ClientStalls.isTimeout(e)) {
      ejectUnlessTooMany(slot, why);
    } else {
      eject(slot, why); // the server refused, reset or answered an error: it is the cause
    }
  }

  /**
   * Notes when a streak began: its first failure sets the time; a later one sets it only if none is
   * set (a success that raced the first failure cleared it), so a streak never dates from an older
   * one.
   */
  private static void began(AtomicLong since, int streak, long now) {
    if (streak == 1) {
      since.set(now);
    } else {
      since.compareAndSet(NodeSlot.NO_STREAK, now);
    }
  }

  /** Whether the streak that began {@code since} has lasted {@code waitNanos}. */
  private static boolean lasted(AtomicLong since, long now, long waitNanos) {
    if (waitNanos == 0) {
      return true;
    }
    long began = since.get();
    return began != NodeSlot.NO_STREAK && now - began >= waitNanos;
  }

  /**
   * How long a node's failures must last before they eject it: {@code promotionWait} for a node
   * that promotes a replica, else nothing (the count alone decides).
   */
  private long promotionWaitNanos(NodeSlot slot) {
    return slot.node.promotesReplica() ? failover.promotionWait().toNanos() : 0;
  }

  /** The node reached the failure limit within its promotion wait: logged once per outage. */
  private void awaitPromotion(NodeSlot slot, int failures) {
    if (slot.awaitingPromotion) {
      return;
    }
    slot.awaitingPromotion = true;
    LOG.log(
        Level.WARNING,
        "cache node \"{0}\" failed {1} times in a row but stays in the live ring until its"
            + " failures have lasted promotionWait ({2}), while a replica of its may be promoted;"
            + " its calls are misses meanwhile, and its keys do not move",
        slot.id(),
        failures,
        failover.promotionWait());
  }

  /**
   * Ejects a node whose calls time out, unless more than half the ring's weight would then be out:
   * when most of the ring times out at once, the client (a throttled CPU, a saturated event loop)
   * is a likelier cause than the servers, and ejecting them all would turn every call into a load,
   * the avalanche this library exists to prevent. Envoy caps ejection the same way ({@code
   * max_ejection_percent}). A node held in keeps failing fast or within its timeout, a miss per
   * call, and is ejected at its next failure once others are back. One node may always be ejected,
   * whatever its weight. Ejections that keep reads correct ({@link #mustEmpty}, untrackable copies)
   * are never held back.
   */
  private void ejectUnlessTooMany(NodeSlot slot, String why) {
    synchronized (this) {
      if (!tooManyOut(slot)) {
        eject(slot, why);
        return;
      }
    }
    if (!slot.heldIn) {
      slot.heldIn = true;
      LOG.log(
          Level.WARNING,
          "cache node \"{0}\" failed {1} but stays in the live ring: ejecting it would take more"
              + " than half the ring''s weight out, so this client suspects itself (CPU, network)"
              + " as much as the servers; its calls are misses until it answers or another node is"
              + " back",
          slot.id(),
          why);
    }
  }

  /** Whether ejecting the slot would leave more than half the live ring's weight out. */
  private boolean tooManyOut(NodeSlot slot) {
    long total = 0;
    long out = 0;
    int outNodes = 0;
    boolean inRing = false;
    for (NodeSlot each : router.current().slots()) {
      int weight = each.ringNode.weight();
      total += weight;
      if (each == slot) {
        inRing = true;
      }
      if (each.ejected || each == slot) {
        out += weight;
        outNodes++;
      }
    }
    return inRing && outNodes > 1 && 2 * out > total;
  }

  /**
   * A write's outcome on the node is unknown: reads of the key there miss until a write lands. When
   * no mark can be made, the node is ejected instead, so that it is emptied before it serves again.
   */
  void unknownCopy(NodeSlot slot, String routingKey) {
    if (!slot.marks.unknown(routingKey)) {
      slot.mustFlush = true;
      eject(slot, "because too many of its keys have copies of unknown state to track them");
    }
    cleanMarksLater();
  }

  /**
   * The key's copy on the node may now be older than its last write (the write went elsewhere, or
   * its delete there was not made): marked unknown, unless the node is out and will be emptied
   * before it serves again, which needs no mark. A verbatim cache's key is marked all the same: no
   * flush empties it ({@link #deleteVerbatimCopies}).
   */
  void staleCopy(NodeSlot slot, String routingKey) {
    if (slot.ejected
        && (failover.onRejoin() == OnRejoin.FLUSH || slot.mustFlush)
        && !VerbatimKeys.isVerbatim(routingKey)) {
      return;
    }
    unknownCopy(slot, routingKey);
  }

  /** The node holds entries that must not be read: eject it, and empty it before it rejoins. */
  void mustEmpty(NodeSlot slot, String why) {
    slot.mustFlush = true;
    eject(slot, why);
  }

  private volatile boolean trackingFullLogged;

  /**
   * A copy away from its key's home was not written because the manager tracks as many marks as it
   * may ({@link ShardedCaches#MAX_MARKS}): the key is a miss until its home is back.
   */
  void trackingFull() {
    if (!trackingFullLogged) {
      trackingFullLogged = true;
      LOG.log(
          Level.WARNING,
          "more than {0} keys have copies this JVM must track (written away from their home, or"
              + " of unknown state); further keys whose home is out are not cached until it is"
              + " back",
          ShardedCaches.MAX_MARKS);
    }
  }

  /** The cause an ejection is reported with ({@link CacheRecorder#ejected}). */
  private String ejectionCause(NodeSlot slot) {
    if (slot.mustFlush) {
      return "must_empty";
    }
    return slot.consecutiveFailures.get() < failover.failureLimit() ? "write_failures" : "failures";
  }

  private synchronized void eject(NodeSlot slot, String why) {
    if (slot.ejected || closed) {
      return;
    }
    slot.ejected = true;
    slot.ejectedAtNanos = ticker.read();
    slot.stats.ejection();
    recorder.ejected(slot.id(), ejectionCause(slot));
    if (!slot.answered) {
      slot.mustFlush = true; // nothing this JVM marked vouches for its entries (NodeSlot#answered)
    }
    router.update(r -> r.without(slot));
    LOG.log(
        Level.WARNING,
        "cache node \"{0}\" ejected from the live ring {1}; retrying after {2}",
        slot.id(),
        why,
        failover.retryAfter());
    scheduleProbe(slot, failover.retryAfter().toNanos());
  }

  /**
   * Probes every ejected node whose {@code retryAfter} has passed: a node that answers is emptied
   * (when {@code onRejoin: flush}) and readmitted; one that does not waits another {@code
   * retryAfter}. Runs on the probe thread; tests call it directly.
   */
  void probeDue() {
    for (NodeSlot slot : slots()) {
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
    boolean flush = failover.onRejoin() == OnRejoin.FLUSH || slot.mustFlush;
    try {
      slot.node.ping();
      if (flush) {
        deleteVerbatimCopies(slot);
        // the flush covers every clear queued so far; if it fails, the next probe flushes again
        slot.pendingClears.clear();
        slot.node.clear();
        trackingFullLogged = false;
      } else {
        deleteUnknownCopies(slot);
      }
    } catch (RuntimeException e) {
      stillFailing(slot, e);
      return;
    }
    if (flush) {
      // emptied: nothing on it is unknown any more (with keep, its unknown keys stay unread)
      slot.marks.clear();
      slot.mustFlush = false;
    }
    // The clears queued while the node was out, including while the calls above ran, are applied
    // before it serves, else a read after such a clear would find the cleared entry.
    while (true) {
      synchronized (this) {
        if (closed) {
          return;
        }
        if (slot.pendingClears.isEmpty()) {
          readmit(slot);
          break;
        }
      }
      try {
        applyPendingClears(slot);
      } catch (RuntimeException e) {
        stillFailing(slot, e);
        return;
      }
    }
    recorder.readmitted(slot.id(), flush ? "flushed" : "kept");
    LOG.log(
        Level.WARNING,
        "cache node \"{0}\" readmitted to the live ring{1}",
        slot.id(),
        flush ? " after clearing its entries" : " with its entries kept");
    int deleted = cleanMarks();
    if (deleted > 0) {
      LOG.log(
          Level.INFO,
          "deleted {0} copies no read may trust (written away from their home during the outage,"
              + " or of unknown state)",
          deleted);
    }
  }

  /**
   * A cache's clear reached a node: returns true when the node is out, having queued the clear to
   * be applied before it serves again; false when it serves, and the caller clears it now. The
   * check and the queueing are one step under the lock that readmits ({@link #readmit}), so a clear
   * either is queued before the readmission looks at the queue or finds the node serving: none is
   * queued too late and lost, whatever a probe under way has done already (see {@link #probeNow}).
   */
  synchronized boolean clearWhenBack(NodeSlot slot, String prefix) {
    if (!slot.ejected) {
      return false;
    }
    slot.pendingClears.add(prefix);
    return true;
  }

  /**
   * The node serves again. Called under the lock of {@link #clearWhenBack} once no clear is queued
   * for the node: it serves only after every clear made while it was out is applied to it.
   */
  private void readmit(NodeSlot slot) {
    slot.consecutiveFailures.set(0);
    slot.consecutiveWriteFailures.set(0);
    slot.failingSince.set(NodeSlot.NO_STREAK);
    slot.writesFailingSince.set(NodeSlot.NO_STREAK);
    slot.awaitingPromotion = false;
    slot.ejected = false;
    router.update(r -> r.readmitting(slot));
    slot.stats.readmission();
  }

  /**
   * Clears on the node each cache cleared while it was out. A prefix leaves the queue before its
   * clear is sent, so one queued again meanwhile stays for the next pass; a failed clear puts it
   * back and throws: the node is then not readmitted.
   */
  private static void applyPendingClears(NodeSlot slot) {
    for (String prefix : slot.pendingClears) {
      slot.pendingClears.remove(prefix);
      try {
        slot.node.clear(prefix);
      } catch (RuntimeException e) {
        slot.pendingClears.add(prefix);
        throw e;
      }
    }
  }

  /** A probe's call failed: the node stays out and is probed again after {@code retryAfter}. */
  private void stillFailing(NodeSlot slot, RuntimeException e) {
    synchronized (this) {
      slot.ejectedAtNanos = ticker.read();
    }
    LOG.log(
        Level.INFO,
        "cache node \"{0}\" still failing its probe ({1}); retrying after {2}",
        slot.id(),
        e.getMessage(),
        failover.retryAfter());
  }

  /**
   * Deletes a marked copy. A key the node refuses to send (longer than a server key may be, one
   * memcached cannot hold, a verbatim key under the key prefix) was never stored there: a write of
   * it is marked on the key's home before it is tried elsewhere and refused. Its refusal is no
   * failure of the node and leaves nothing to delete, so the mark goes; thrown, it kept the node
   * out of the ring at every readmission (issue 43).
   */
  private static void deleteCopy(Runnable delete) {
    try {
      delete.run();
    } catch (ValueRefusedException e) {
      // nothing of the key can be on the node
    }
  }

  /**
   * Before a node rejoins emptied: deletes the marked keys of verbatim caches, which the flush
   * ({@link CacheNode#clear()}, this library's prefix only) does not reach. Throws when a delete
   * fails: the node is then not readmitted.
   */
  private static void deleteVerbatimCopies(NodeSlot slot) {
    if (slot.marks.isEmpty()) {
      return;
    }
    slot.marks.forEach(
        (key, mark) -> {
          if (VerbatimKeys.isVerbatim(key)) {
            deleteCopy(() -> slot.node.evict(key));
            slot.marks.forget(key, mark);
          }
        });
  }

  /**
   * Before a node rejoins with its entries kept: deletes every key whose copy there is of unknown
   * state (written elsewhere during the outage, or a failed write) and forgets its mark, so marks
   * do not pile up over outages. A mark made meanwhile is a new one and stays. Throws when a delete
   * fails: the node is then not readmitted.
   */
  private void deleteUnknownCopies(NodeSlot slot) {
    if (slot.marks.isEmpty()) {
      return;
    }
    slot.marks.forEach(
        (key, mark) -> {
          if (mark.isUnknown()) {
            deleteCopy(() -> router.erase(slot, key)); // a tombstone within windows: Router.erase
            slot.marks.forget(key, mark);
          }
        });
  }

  /**
   * Deletes, on every serving node, the copies its marks say no read may trust: copies written away
   * from their home before the current generation's trust horizon (see {@link Routing#readable}),
   * and copies of unknown state (a failed write, a delete not made). Each deleted copy's mark is
   * forgotten unless a newer mark replaced it, so marks do not outlive what they track and a node
   * that keeps failing now and then does not pile them up. Stops on a node at its first failure.
   * Runs after each readmission and, while marks remain, every {@code retryAfter}.
   *
   * @return how many copies it deleted
   */
  int cleanMarks() {
    Routing now = router.current();
    int deleted = 0;
    for (NodeSlot slot : slots()) {
      if (slot.ejected || slot.marks.isEmpty()) {
        continue;
      }
      List<Map.Entry<String, CopyMarks.Mark>> doomed = new ArrayList<>();
      slot.marks.forEach(
          (key, mark) -> {
            if (mark.isUnknown() || !mark.trustedSince(now.trustedSince)) {
              doomed.add(Map.entry(key, mark));
            }
          });
      for (Map.Entry<String, CopyMarks.Mark> copy : doomed) {
        try {
          String key = copy.getKey();
          if (copy.getValue().isUnknown()) {
            // may be this JVM's newest write, applied with its reply lost (fleet simulation with
            // dropped replies: seed 324114176)
            deleteCopy(() -> router.erase(slot, key));
          } else {
            deleteCopy(() -> slot.node.evict(key));
          }
        } catch (RuntimeException e) {
          failed(slot, e, true);
          break;
        }
        slot.marks.forget(copy.getKey(), copy.getValue());
        deleted++;
      }
    }
    return deleted;
  }

  private boolean cleanupPending; // guarded by this

  /** Cleans marks after {@code retryAfter}, once at a time, while some serving node has marks. */
  private synchronized void cleanMarksLater() {
    if (cleanupPending || !scheduleProbes || closed) {
      return;
    }
    cleanupPending = true;
    schedule(
        () -> {
          try {
            cleanMarks();
          } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "cleaning copy marks failed unexpectedly", e);
          } finally {
            synchronized (this) {
              cleanupPending = false;
            }
          }
          if (slots().stream().anyMatch(slot -> !slot.marks.isEmpty())) {
            cleanMarksLater();
          }
        },
        failover.retryAfter().toNanos());
  }

  private synchronized void scheduleProbe(NodeSlot slot, long delayNanos) {
    schedule(() -> probeWhenDue(slot), delayNanos);
  }

  /**
   * Runs a background task of the manager (a probe, a leftover sweep) after {@code delayNanos} on
   * its one daemon thread; nothing when probes are off (tests drive them by hand) or closed.
   */
  synchronized void schedule(Runnable task, long delayNanos) {
    if (!scheduleProbes || closed) {
      return;
    }
    if (prober == null) {
      ScheduledThreadPoolExecutor executor =
          new ScheduledThreadPoolExecutor(
              1,
              r -> {
                Thread t = new Thread(r, "chash-maintenance");
                t.setDaemon(true);
                return t;
              });
      executor.setRemoveOnCancelPolicy(true);
      prober = executor;
    }
    prober.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
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

  /**
   * Stops the probes and publishes a closed routing; returns false when it was closed already. The
   * routing is the one record of "closed": every operation reads it.
   */
  synchronized boolean close() {
    if (closed) {
      return false;
    }
    closed = true;
    router.update(Routing::closing);
    if (prober != null) {
      prober.shutdownNow();
    }
    return true;
  }
}
