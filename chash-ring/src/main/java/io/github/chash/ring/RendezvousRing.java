package io.github.chash.ring;

import java.util.List;

/**
 * {@code rendezvous}: weighted highest-random-weight hashing (Thaler and Ravishankar, "Using
 * name-based mappings to increase hit rates", IEEE/ACM ToN 1998), weighted by the logarithmic
 * method of Schindelhauer and Schomaker ("Weighted distributed hash tables", SPAA 2005).
 *
 * <p>For key {@code k} and node {@code X}: {@code u = (mix(xxh3(X.id()), hash(k)) >>> 11 + 0.5) /
 * 2^53} in (0, 1) and {@code score = -weight / ln(u)}; the highest score owns the key, ties to the
 * smaller id. Lookup is O(nodes). Ownership is the analytic share {@code weight / totalWeight}.
 */
final class RendezvousRing extends AbstractRing {
  private final HashFunction hash;
  private final long[] nodeSeeds;
  private final double[] weights;

  RendezvousRing(RingSettings settings, List<Node> sortedNodes) {
    super(settings, sortedNodes);
    this.hash = settings.hash();
    this.nodeSeeds = new long[sortedNodes.size()];
    this.weights = new double[sortedNodes.size()];
    for (int i = 0; i < nodeSeeds.length; i++) {
      nodeSeeds[i] = Hashes.xxh3(sortedNodes.get(i).id());
      weights[i] = sortedNodes.get(i).weight();
    }
  }

  private double score(int node, long keyHash) {
    double u = ((Hashes.mix(nodeSeeds[node], keyHash) >>> 11) + 0.5) * 0x1.0p-53;
    return -weights[node] / Math.log(u);
  }

  @Override
  int owner(CharSequence key) {
    long keyHash = hash.hash(key);
    int best = 0;
    double bestScore = score(0, keyHash);
    for (int i = 1; i < nodeSeeds.length; i++) {
      double s = score(i, keyHash);
      if (s > bestScore) {
        best = i;
        bestScore = s;
      }
    }
    return best;
  }

  /** The {@code n} highest scores, best first. */
  @Override
  int[] preference(CharSequence key, int n) {
    long keyHash = hash.hash(key);
    int[] best = new int[n];
    double[] bestScores = new double[n];
    int found = 0;
    for (int i = 0; i < nodeSeeds.length; i++) {
      double s = score(i, keyHash);
      if (found == n && s <= bestScores[n - 1]) {
        continue;
      }
      int j = found < n ? found++ : n - 1;
      while (j > 0 && bestScores[j - 1] < s) {
        best[j] = best[j - 1];
        bestScores[j] = bestScores[j - 1];
        j--;
      }
      best[j] = i;
      bestScores[j] = s;
    }
    return best;
  }

  @Override
  int firstUsable(CharSequence key, java.util.function.IntPredicate usable) {
    long keyHash = hash.hash(key);
    int best = -1;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < nodeSeeds.length; i++) {
      if (usable.test(i)) {
        double s = score(i, keyHash);
        if (best < 0 || s > bestScore) {
          best = i;
          bestScore = s;
        }
      }
    }
    return best;
  }

  /** Highest random weight among the usable nodes: their weights, normalised. */
  @Override
  double[] shares(java.util.function.IntPredicate usable) {
    double total = 0;
    for (int i = 0; i < weights.length; i++) {
      total += usable.test(i) ? weights[i] : 0;
    }
    double[] shares = new double[weights.length];
    for (int i = 0; i < weights.length && total > 0; i++) {
      shares[i] = usable.test(i) ? weights[i] / total : 0;
    }
    return shares;
  }

  @Override
  double[] shares() {
    double total = 0;
    for (double w : weights) {
      total += w;
    }
    double[] shares = new double[weights.length];
    for (int i = 0; i < weights.length; i++) {
      shares[i] = weights[i] / total;
    }
    return shares;
  }
}
