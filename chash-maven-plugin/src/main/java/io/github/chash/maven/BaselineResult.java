package io.github.chash.maven;

import io.github.chash.analysis.BaselineReport;

/**
 * A comparison with the baseline and the movement limits it is held to. The writers render it
 * (console, {@code report.json}, {@code report.html}); {@code chash:check} fails on its violation.
 * Immutable.
 *
 * @param report the comparison
 * @param file the configuration compared
 * @param maxMoved the largest allowed moved fraction
 * @param maxMovedDefaulted whether {@code maxMoved} is the default, set nowhere
 * @param maxMovedOverIdeal the largest allowed moved / ideal ratio
 * @param maxMovedOverIdealDefaulted whether {@code maxMovedOverIdeal} is the default
 */
record BaselineResult(
    BaselineReport report,
    ConfigFile file,
    double maxMoved,
    boolean maxMovedDefaulted,
    double maxMovedOverIdeal,
    boolean maxMovedOverIdealDefaulted) {

  /**
   * The moved-fraction limit when none is set: adding or removing one node of four or more moves at
   * most 25%, a weight typo ({@code 20} for {@code 2}) half the keys.
   */
  static final double DEFAULT_MAX_MOVED = 0.30;

  /**
   * The moved-over-ideal limit when none is set: {@code ring}, {@code rendezvous} and {@code jump}
   * stay near 1.0, {@code maglev} joins at 100 nodes measured 1.57; a changed hash, algorithm,
   * {@code pointsPerWeight} or node id (ideal 0) always exceeds it.
   */
  static final double DEFAULT_MAX_MOVED_OVER_IDEAL = 2.0;

  /** The limits from the command line (first), else {@code chash.yaml}, else the defaults. */
  static BaselineResult of(
      BaselineReport report,
      ConfigFile file,
      Double movedOverride,
      Double movedConfigured,
      Double overIdealOverride,
      Double overIdealConfigured) {
    Double moved = movedOverride != null ? movedOverride : movedConfigured;
    Double overIdeal = overIdealOverride != null ? overIdealOverride : overIdealConfigured;
    return new BaselineResult(
        report,
        file,
        moved != null ? moved : DEFAULT_MAX_MOVED,
        moved == null,
        overIdeal != null ? overIdeal : DEFAULT_MAX_MOVED_OVER_IDEAL,
        overIdeal == null);
  }

  /** The failure message (one line, with the remedy), or null when the limits hold. */
  String violation() {
    String broken = report.violation(maxMoved, maxMovedOverIdeal);
    return broken == null ? null : broken + "; " + Remedies.forMovement(this);
  }

  /** Whether the limits hold. */
  boolean passed() {
    return report.violation(maxMoved, maxMovedOverIdeal) == null;
  }
}
