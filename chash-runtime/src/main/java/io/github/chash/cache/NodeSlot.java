package io.github.chash.cache;

import io.github.chash.ring.Node;
import java.util.concurrent.atomic.AtomicInteger;

/** A configured node with its ring identity, counters and health state. */
final class NodeSlot {
  final CacheNode node;
  final Node ringNode;

  /** The node's position among the manager's nodes (configuration order), for per-node arrays. */
  final int index;

  final StatsCounter stats = new StatsCounter();
  final AtomicInteger consecutiveFailures = new AtomicInteger();

  /** Written under the {@link LiveRing} lock, read without it. */
  volatile boolean ejected;

  /** When it was ejected or last failed a probe ({@code Ticker} nanos); guarded by the lock. */
  long ejectedAtNanos;

  NodeSlot(CacheNode node, Node ringNode, int index) {
    this.node = node;
    this.ringNode = ringNode;
    this.index = index;
  }

  String id() {
    return ringNode.id();
  }
}
