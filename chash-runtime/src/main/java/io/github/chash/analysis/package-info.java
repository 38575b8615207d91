/**
 * Key distribution analysis of a ring: each node's fair, exact and sampled share, its skew, the
 * keys that move when it is removed, what-if changes and the violations of a skew limit; and the
 * change impact against a baseline configuration: the keys that change node, the ideal for the
 * membership change and the named causes.
 *
 * <p>Computation only: no Maven, no report formats. Entry points: {@link
 * io.github.chash.analysis.DistributionAnalysis} and {@link
 * io.github.chash.analysis.BaselineComparison}. All results are immutable values.
 */
package io.github.chash.analysis;
