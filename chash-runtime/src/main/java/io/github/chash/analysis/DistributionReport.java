package io.github.chash.analysis;

import io.github.chash.ring.RingSettings;
import java.util.List;

/**
 * The key distribution of a ring: one {@link NodeStats} per node and the violations of the skew
 * limit. Immutable.
 *
 * @param settings the ring's settings (algorithm, hash, points per weight)
 * @param keySource the sample keys' pattern or file name
 * @param sampleKeys how many keys were sampled
 * @param nodes per-node statistics, in the ring's node order
 * @param limit the largest allowed skew
 * @param zThreshold the z statistic a sampled excess must pass to count as a violation
 * @param violations every broken limit, one per node at most, the largest skew first
 */
public record DistributionReport(
    RingSettings settings,
    String keySource,
    int sampleKeys,
    List<NodeStats> nodes,
    double limit,
    double zThreshold,
    List<Violation> violations) {

  /**
   * Compact constructor: defensive copies.
   *
   * @param settings the ring's settings (algorithm, hash, points per weight)
   * @param keySource the sample keys' pattern or file name
   * @param sampleKeys how many keys were sampled
   * @param nodes per-node statistics, in the ring's node order
   * @param limit the largest allowed skew
   * @param zThreshold the z statistic a sampled excess must pass to count as a violation
   * @param violations every broken limit, one per node at most, the largest skew first
   */
  public DistributionReport {
    nodes = List.copyOf(nodes);
    violations = List.copyOf(violations);
  }

  /** {@return the largest node skew, exact or sampled (0 for an empty ring)} */
  public double maxSkew() {
    return nodes.stream()
        .mapToDouble(NodeStats::skew)
        .filter(d -> !Double.isNaN(d))
        .max()
        .orElse(0);
  }

  /** {@return the largest exact skew} */
  public double maxExactSkew() {
    return nodes.stream().mapToDouble(NodeStats::exactSkew).max().orElse(0);
  }

  /** {@return the largest sampled skew (NaN without samples)} */
  public double maxSampledSkew() {
    return sampleKeys == 0
        ? Double.NaN
        : nodes.stream().mapToDouble(NodeStats::sampledSkew).max().orElse(0);
  }

  /**
   * {@return how many decimals a share needs, as a percentage, for the smallest fair share to show
   * three significant digits (and at least two): {@code 25.00%} at 4 nodes, {@code 0.0500%} at
   * 2,000 weight units, {@code 0.00500%} at 20,000}
   */
  public int shareDecimals() {
    return shareDecimals(nodes);
  }

  static int shareDecimals(List<NodeStats> nodes) {
    double smallest = nodes.stream().mapToDouble(NodeStats::fairShare).min().orElse(1) * 100;
    if (!(smallest > 0)) {
      return 2;
    }
    return Math.max(2, 2 - (int) Math.floor(Math.log10(smallest)));
  }

  /**
   * {@return the skew that decides about a node: its exact skew, or its sampled skew when that lies
   * over the limit beyond sampling noise (the test of {@link DistributionAnalysis}), whichever is
   * larger} With few sample keys per node (a million keys over 10,000 nodes: about 50 each) sampled
   * skews of 1.5 are noise; ranking by this one puts the nodes that matter first.
   *
   * @param node one of this report's nodes
   */
  public double decisiveSkew(NodeStats node) {
    boolean sampledCounts =
        sampleKeys > 0 && node.sampledSkew() > limit && node.sampledZ() > zThreshold;
    return sampledCounts ? Math.max(node.exactSkew(), node.sampledSkew()) : node.exactSkew();
  }

  /**
   * {@return the node of the largest {@link #decisiveSkew} (the first in node order among equals),
   * or null without nodes}
   */
  public NodeStats worstNode() {
    NodeStats worst = null;
    for (NodeStats n : nodes) {
      if (worst == null || decisiveSkew(n) > decisiveSkew(worst)) {
        worst = n;
      }
    }
    return worst;
  }

  /** {@return whether no limit is broken} */
  public boolean passed() {
    return violations.isEmpty();
  }
}
