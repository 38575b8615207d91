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
 * @param violations every broken limit, exact-share ones first
 */
public record DistributionReport(
    RingSettings settings,
    String keySource,
    int sampleKeys,
    List<NodeStats> nodes,
    double limit,
    double zThreshold,
    List<Violation> violations) {

  /** Compact constructor: defensive copies. */
  public DistributionReport {
    nodes = List.copyOf(nodes);
    violations = List.copyOf(violations);
  }

  /** The largest node skew, exact or sampled (0 for an empty ring). */
  public double maxSkew() {
    return nodes.stream()
        .mapToDouble(NodeStats::skew)
        .filter(d -> !Double.isNaN(d))
        .max()
        .orElse(0);
  }

  /** The largest exact skew. */
  public double maxExactSkew() {
    return nodes.stream().mapToDouble(NodeStats::exactSkew).max().orElse(0);
  }

  /** The largest sampled skew (NaN without samples). */
  public double maxSampledSkew() {
    return sampleKeys == 0
        ? Double.NaN
        : nodes.stream().mapToDouble(NodeStats::sampledSkew).max().orElse(0);
  }

  /** Whether no limit is broken. */
  public boolean passed() {
    return violations.isEmpty();
  }
}
