package io.github.chash.analysis;

/**
 * One broken limit. Generic so that other rules (key movement against a baseline) report the same
 * way.
 *
 * @param rule what was checked: {@link #EXACT_SKEW}, {@link #SAMPLED_SKEW}, or another rule's name
 * @param subject what broke it, e.g. the node id (null when the whole ring does)
 * @param measured the measured value, e.g. the skew
 * @param limit the limit it exceeds
 * @param message one line naming the subject, the numbers and the limit
 */
public record Violation(
    String rule, String subject, double measured, double limit, String message) {
  /** Rule name: a node's exact share exceeds {@code limit * fairShare}. */
  public static final String EXACT_SKEW = "exact-skew";

  /** Rule name: a node's sampled share exceeds {@code limit * fairShare} beyond sampling noise. */
  public static final String SAMPLED_SKEW = "sampled-skew";

  @Override
  public String toString() {
    return message;
  }
}
