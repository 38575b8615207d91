package io.github.chash.cache;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * The hits of one cache, one counter per node: a hit increments one {@link LongAdder} instead of
 * one for the cache and one for the node (the hit path's costliest counting); the cache's count and
 * each node's are sums, taken when stats are read. Grows when nodes join ({@link #ensure}).
 */
final class HitCounts {
  private volatile LongAdder[] byNode;

  HitCounts(int nodes) {
    byNode = adders(new LongAdder[0], nodes);
  }

  void hit(NodeSlot slot) {
    byNode[slot.index].increment();
  }

  /** Makes room for the nodes of index below {@code nodes}, keeping every count. */
  synchronized void ensure(int nodes) {
    if (byNode.length < nodes) {
      byNode = adders(byNode, nodes);
    }
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
    LongAdder[] counts = byNode;
    return index < counts.length ? counts[index].sum() : 0;
  }

  private static LongAdder[] adders(LongAdder[] kept, int size) {
    LongAdder[] out = Arrays.copyOf(kept, size);
    for (int i = kept.length; i < size; i++) {
      out[i] = new LongAdder();
    }
    return out;
  }
}
