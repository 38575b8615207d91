/**
 * Key distribution analysis of a ring: each node's fair, exact and sampled share, its skew, the
 * keys that move when it is removed, what-if changes and the violations of a skew limit.
 *
 * <p>Computation only: no Maven, no report formats. Entry point: {@link
 * io.github.chash.analysis.DistributionAnalysis}. All results are immutable values.
 */
package io.github.chash.analysis;
