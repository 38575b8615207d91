package io.github.chash.analysis;

import java.util.List;

/**
 * What a {@link RingChange} does to the keys. Immutable.
 *
 * @param change the change
 * @param movedFraction fraction of all keys whose node changes
 * @param idealFraction the least any placement could move for this membership change: the sum of
 *     the fair-share gains (one node joining ten of equal weight: 1/11)
 * @param estimate how the fractions were obtained ({@link Estimate#EXACT} or {@link
 *     Estimate#SAMPLED})
 * @param sampleKeys keys sampled (0 when exact)
 * @param flows where the moved keys go, largest first
 */
public record ChangeReport(
    RingChange change,
    double movedFraction,
    double idealFraction,
    Estimate estimate,
    int sampleKeys,
    List<Flow> flows) {

  /**
   * Compact constructor: defensive copy.
   *
   * @param change the change
   * @param movedFraction fraction of all keys whose node changes
   * @param idealFraction the least any placement could move for this membership change: the sum of
   *     the fair-share gains (one node joining ten of equal weight: 1/11)
   * @param estimate how the fractions were obtained ({@link Estimate#EXACT} or {@link
   *     Estimate#SAMPLED})
   * @param sampleKeys keys sampled (0 when exact)
   * @param flows where the moved keys go, largest first
   */
  public ChangeReport {
    flows = List.copyOf(flows);
  }
}
