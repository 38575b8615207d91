/**
 * Key distribution analysis of a ring: each node's fair, exact and sampled share, its skew, the
 * keys that move when it is removed, what-if changes and the violations of a skew limit; and the
 * change impact against a baseline configuration: the keys that change node, the ideal for the
 * membership change and the named causes.
 *
 * <p>Computation only: no Maven, no report formats. Entry points: {@link
 * io.github.chash.analysis.DistributionAnalysis} and {@link
 * io.github.chash.analysis.BaselineComparison}. All results are immutable values.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.analysis;
