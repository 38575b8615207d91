package io.github.chash.analysis;

/** How a moved-keys fraction was obtained. */
public enum Estimate {
  /**
   * Computed from the rings' exact ownership (for {@code rendezvous} and {@code jump}, whose
   * ownership is the analytic expectation, exact in expectation).
   */
  EXACT,
  /** Counted over the sample keys. */
  SAMPLED,
  /** Only a lower bound is known: the keys the node owns, which move in any case. */
  LOWER_BOUND
}
