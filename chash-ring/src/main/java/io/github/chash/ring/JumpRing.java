package io.github.chash.ring;

import java.util.List;

/**
 * {@code jump}: jump consistent hash (Lamping and Veach, "A Fast, Minimal Memory, Consistent Hash
 * Algorithm", arXiv:1406.2294, 2014) over the nodes in the order given; node {@code i} is bucket
 * {@code i}.
 *
 * <p>Jump knows buckets, not weights: every node must have weight 1 (a node of another weight is
 * rejected; list a node several times under distinct ids to weigh it). Only the last node may be
 * removed, since removing another would renumber the buckets after it. The preference list follows
 * the fallback chain {@code b0 = jump(h, n)}, {@code b1 = jump(h, b0)}, ... down to bucket 0 (the
 * nodes that take over as the tail is removed), then rehashed jumps among the nodes not yet chosen.
 * Ownership is the analytic {@code 1 / nodes}.
 */
final class JumpRing extends AbstractRing {
  private final HashFunction hash;

  JumpRing(RingSettings settings, List<Node> orderedNodes) {
    super(settings, orderedNodes);
    this.hash = settings.hash();
    for (Node node : orderedNodes) {
      String problem = Algorithm.JUMP.weightProblem(node.weight());
      if (problem != null) {
        throw new IllegalArgumentException("weight of node \"" + node.id() + "\" " + problem);
      }
    }
  }

  /** Lamping and Veach's reference code, unchanged. */
  static int jump(long key, int buckets) {
    long b = -1;
    long j = 0;
    while (j < buckets) {
      b = j;
      key = key * 2862933555777941757L + 1;
      j = (long) ((b + 1) * ((double) (1L << 31) / (double) ((key >>> 33) + 1)));
    }
    return (int) b;
  }

  @Override
  int owner(CharSequence key) {
    return jump(hash.hash(key), nodes.size());
  }

  @Override
  int[] preference(CharSequence key, int n) {
    long keyHash = hash.hash(key);
    int size = nodes.size();
    int[] result = new int[n];
    boolean[] chosen = new boolean[size];
    int found = 0;
    // The fallback chain: bucket b is gone only once every bucket from b on is, and then the key
    // jumps among the first b buckets.
    for (int buckets = size; buckets > 0 && found < n; ) {
      int b = jump(keyHash, buckets);
      result[found++] = b;
      chosen[b] = true;
      buckets = b;
    }
    // Past bucket 0 the chain ends; the rest are drawn by rehashed jumps among the unchosen.
    int[] remaining = new int[size - found];
    for (int i = 0, r = 0; i < size; i++) {
      if (!chosen[i]) {
        remaining[r++] = i;
      }
    }
    for (int left = remaining.length, round = 1; found < n; left--, round++) {
      int pick = jump(Hashes.mix(keyHash, round), left);
      result[found++] = remaining[pick];
      System.arraycopy(remaining, pick + 1, remaining, pick, left - pick - 1);
    }
    return result;
  }

  /** Down the fallback chain; past bucket 0, the whole preference list. */
  @Override
  int firstUsable(CharSequence key, java.util.function.IntPredicate usable) {
    long keyHash = hash.hash(key);
    for (int b = jump(keyHash, nodes.size()); b > 0; ) {
      b = jump(keyHash, b);
      if (usable.test(b)) {
        return b;
      }
    }
    return super.firstUsable(key, usable);
  }

  /**
   * The analytic expectation: the keys of a refused bucket {@code b} fall back uniformly over the
   * buckets below it (jump moves 1/(b+1) of every bucket's keys to bucket {@code b} as it is
   * added); past bucket 0 they are spread evenly over the usable nodes.
   */
  @Override
  double[] shares(java.util.function.IntPredicate usable) {
    int size = nodes.size();
    double[] shares = new double[size];
    java.util.Arrays.fill(shares, 1.0 / size);
    for (int b = size - 1; b > 0; b--) {
      if (!usable.test(b)) {
        for (int j = 0; j < b; j++) {
          shares[j] += shares[b] / b;
        }
        shares[b] = 0;
      }
    }
    if (!usable.test(0)) {
      double orphaned = shares[0];
      shares[0] = 0;
      long usableCount = java.util.stream.IntStream.range(0, size).filter(usable).count();
      for (int i = 0; i < size && usableCount > 0; i++) {
        if (usable.test(i)) {
          shares[i] += orphaned / usableCount;
        }
      }
    }
    return shares;
  }

  @Override
  double[] shares() {
    double[] shares = new double[nodes.size()];
    java.util.Arrays.fill(shares, 1.0 / nodes.size());
    return shares;
  }

  @Override
  public Ring without(String nodeId) {
    int last = nodes.size() - 1;
    if (!nodes.get(last).id().equals(nodeId)) {
      boolean present = nodes.stream().anyMatch(n -> n.id().equals(nodeId));
      if (present) {
        throw new IllegalArgumentException(
            "jump can remove only the last node \""
                + nodes.get(last).id()
                + "\"; was \""
                + nodeId
                + "\"");
      }
    }
    return super.without(nodeId);
  }
}
