package io.github.chash.cache;

import java.util.concurrent.atomic.LongAdder;

/**
 * The hits of one cache, one counter per node: a hit increments one {@link LongAdder} instead of
 * one for the cache and one for the node (the hit path's costliest counting); the cache's count and
 * each node's are sums, taken when stats are read.
 */
final class HitCounts {
  private final LongAdder[] byNode;

  HitCounts(int nodes) {
    byNode = new LongAdder[nodes];
    for (int i = 0; i < nodes; i++) {
      byNode[i] = new LongAdder();
    }
  }

  void hit(NodeSlot slot) {
    byNode[slot.index].increment();
  }

  /** The cache's hits on every node. */
  long total() {
    long sum = 0;
    for (LongAdder hits : byNode) {
      sum += hits.sum();
    }
    return sum;
  }

  /** The cache's hits on the node of {@link NodeSlot#index} {@code index}. */
  long onNode(int index) {
    return byNode[index].sum();
  }
}
