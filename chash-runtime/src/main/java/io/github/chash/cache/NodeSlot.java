package io.github.chash.cache;

import io.github.chash.ring.Node;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** A configured node with its ring identity, counters, health state and copy marks. */
final class NodeSlot {
  final CacheNode node;

  /** Its ring identity; a reweight changes it (under the membership's lock), nothing else. */
  volatile Node ringNode;

  /** The node's number in its manager, unique and stable, for per-node arrays. */
  final int index;

  final StatsCounter stats = new StatsCounter();

  /** The node as metrics and spans name it. */
  final NodeInfo info;

  final CopyMarks marks;

  /** The node's invalidation channel as near caches see it ({@link NearCaches#attach}). */
  final NodeTracking tracking = new NodeTracking();

  /**
   * Every failure so far, never reset: a call notes it before it starts, and its success ends the
   * streak only if no failure came while it ran ({@link FailurePolicy#succeeded}).
   */
  final AtomicInteger failureTotal = new AtomicInteger();

  /** Failed operations in a row; a success ends the streak. */
  final AtomicInteger consecutiveFailures = new AtomicInteger();

  /** Failed writes in a row; only a write that lands ends it (reads may succeed meanwhile). */
  final AtomicInteger consecutiveWriteFailures = new AtomicInteger();

  /** What {@link #failingSince} and {@link #writesFailingSince} hold while no streak runs. */
  static final long NO_STREAK = Long.MIN_VALUE;

  /**
   * When the running streak of {@link #consecutiveFailures} began ({@code Ticker} nanos), or {@link
   * #NO_STREAK}: a node that promotes a replica is ejected only once its streak lasted {@code
   * failover.promotionWait} ({@link FailurePolicy#failed}).
   */
  final AtomicLong failingSince = new AtomicLong(NO_STREAK);

  /** When the running streak of {@link #consecutiveWriteFailures} began, or {@link #NO_STREAK}. */
  final AtomicLong writesFailingSince = new AtomicLong(NO_STREAK);

  /**
   * Cache prefixes cleared while the node was out, to clear on it before it serves again; queued
   * only through {@link FailurePolicy#clearWhenBack}, which readmissions wait for.
   */
  final Set<String> pendingClears = ConcurrentHashMap.newKeySet();

  /** Written under the {@link FailurePolicy} lock, read without it. */
  volatile boolean ejected;

  /**
   * Its failures reached the limit but it stays in, since ejecting it would take more than half the
   * ring out ({@link FailurePolicy}); logged once per failure streak.
   */
  volatile boolean heldIn;

  /**
   * Its failures reached the limit but it stays in while its replica may be promoted ({@link
   * FailurePolicy}); logged once until its streaks end.
   */
  volatile boolean awaitingPromotion;

  /** Some mark could not be made while the node was out: it must be emptied before it rejoins. */
  volatile boolean mustFlush;

  /**
   * Whether the node has answered a call of this JVM since the slot was made. A node ejected before
   * it ever answered may have been out since before this JVM started, when an earlier run of it may
   * have written the node's keys elsewhere and lost its marks with its memory: no mark of this JVM
   * vouches for its entries, so it is emptied before it rejoins ({@link FailurePolicy#eject}).
   */
  volatile boolean answered;

  /** When it was ejected or last failed a probe ({@code Ticker} nanos); guarded by the lock. */
  long ejectedAtNanos;

  NodeSlot(CacheNode node, Node ringNode, int index, CopyMarks marks) {
    this.node = node;
    this.info = NodeInfo.of(node);
    this.ringNode = ringNode;
    this.index = index;
    this.marks = marks;
  }

  String id() {
    return ringNode.id();
  }

  /**
   * {@return whether the rules between JVMs (leases, tombstones, conditional moves: see {@link
   * CacheNode#conditional()}) apply to the key on this node} Never for a verbatim cache's key
   * ({@link VerbatimKeys}): other applications' clients read and write it as it is, so it may hold
   * no marker, and a raw value could not be told from one; such a key keeps the rules of one JVM.
   */
  boolean conditionalFor(CharSequence routingKey) {
    return node.conditional() && !VerbatimKeys.isVerbatim(routingKey);
  }

  /** Whether the node's most recent operation failed (a failure streak is running). */
  boolean justFailed() {
    return consecutiveFailures.get() != 0;
  }

  /**
   * Whether a call on the node would wait in vain: it is ejected, or its last call failed. Rule 6
   * (one wait per node per call): such a node is skipped, and what a call would have done there is
   * marked instead.
   */
  boolean skipsCalls() {
    return ejected || justFailed();
  }
}
