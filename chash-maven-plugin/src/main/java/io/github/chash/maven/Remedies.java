package io.github.chash.maven;

import io.github.chash.analysis.ChangeCause;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.Violation;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.RingSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What to do about a failure, in the words of the configuration: each failure line says what is
 * wrong (the analysis) and, from here, what to change. Stateless.
 */
final class Remedies {
  private Remedies() {}

  /** Hashes that spread similar keys badly (see the algorithms page). */
  private static final List<String> WEAK_HASHES = List.of("jdk", "fnv1-32");

  /** The remedy of one skew violation, starting with {@code fix:}. */
  static String forSkew(DistributionReport report, Violation v, String keysDescription) {
    RingSettings settings = report.settings();
    boolean exact = v.rule().equals(Violation.EXACT_SKEW);
    String raiseLimit =
        "if this skew is acceptable, raise check.maxSkew (now " + Text.limit(report.limit()) + ")";
    if (exact && usesPoints(settings.algorithm())) {
      int suggested = suggestedPoints(report.nodes().size(), report.limit(), settings);
      return "fix: raise ring.pointsPerWeight from "
          + settings.pointsPerWeight()
          + " to "
          + suggested
          + " or more (a node's share varies as 1/sqrt(its points)), or use algorithm maglev; "
          + raiseLimit;
    }
    if (exact) {
      return "fix: " + raiseLimit;
    }
    if (WEAK_HASHES.contains(settings.hash().name())) {
      return "fix: hash "
          + settings.hash().name()
          + " spreads keys like "
          + keysDescription
          + " unevenly: use hash xxh3 (it moves every key once); "
          + raiseLimit;
    }
    return "fix: the sample keys ("
        + keysDescription
        + ") land unevenly although the ring's exact shares hold: if they are real keys, a few"
        + " keys or one hot key dominate; if synthetic, make check.keyPattern look like your keys;"
        + " "
        + raiseLimit;
  }

  /**
   * Points per weight that should bring the busiest of {@code nodes} nodes under the limit: a
   * node's share has a relative deviation of about 1/sqrt(points), and the largest of n normal
   * deviations is about sqrt(2 ln n); one more standard deviation for margin, rounded up to a round
   * number, at least twice the current value.
   */
  static int suggestedPoints(int nodes, double limit, RingSettings settings) {
    double z = Math.sqrt(2 * Math.log(Math.max(2, nodes))) + 1;
    double points = Math.pow(z / Math.max(0.01, limit - 1), 2);
    points = Math.max(points, 2.0 * settings.pointsPerWeight());
    double step = Math.pow(10, Math.floor(Math.log10(points)));
    int rounded = (int) (Math.ceil(points / step) * step);
    return Math.min(rounded, RingSettings.MAX_POINTS_PER_WEIGHT);
  }

  /** The remedy of a movement violation, starting with {@code fix:}. */
  static String forMovement(BaselineResult result) {
    List<String> fixes = new ArrayList<>();
    for (ChangeCause cause : result.report().causes()) {
      switch (cause.kind()) {
        case RENAMED -> fixes.add("keep the old node id (a node's points are derived from its id)");
        case HASH, ALGORITHM, POINTS_PER_WEIGHT ->
            fixes.add("restore the " + what(cause.kind()) + " unless the change is intended");
        case REWEIGHTED ->
            fixes.add("check the new weight (a typo such as 20 for 2 moves half the keys)");
        case ORDER -> fixes.add("keep the jump nodes in their old order, adding at the end");
        default -> {
          // joins and leaves move what they must
        }
      }
    }
    String accept = "if the change is intended, " + acceptance(result);
    fixes.add(accept);
    return "fix: " + String.join("; ", fixes);
  }

  private static String acceptance(BaselineResult result) {
    String baseline = result.report().baseline();
    String update =
        baseline.startsWith(BaselineSource.GIT)
            ? "merge it (the default branch then compares with itself) or build this once with"
                + " -Dchash.baseline=none"
            : "update the baseline " + baseline + " or build this once with -Dchash.baseline=none";
    double moved = result.report().movedFraction();
    if (moved > result.maxMoved() && Double.isFinite(result.report().movedOverIdeal())) {
      String value = String.format(Locale.ROOT, "%.2f", Math.min(1, Math.ceil(moved * 100) / 100));
      return "raise check.maxMoved to "
          + value
          + " in "
          + result.file().display()
          + " (-Dchash.maxMoved="
          + value
          + "), or "
          + update;
    }
    double ratio = result.report().movedOverIdeal();
    if (Double.isFinite(ratio) && ratio > result.maxMovedOverIdeal()) {
      String value = String.format(Locale.ROOT, "%.1f", Math.ceil(ratio * 10) / 10);
      return "raise check.maxMovedOverIdeal to "
          + value
          + " in "
          + result.file().display()
          + " (-Dchash.maxMovedOverIdeal="
          + value
          + "), or "
          + update;
    }
    return update;
  }

  private static String what(ChangeCause.Kind kind) {
    return switch (kind) {
      case HASH -> "hash";
      case ALGORITHM -> "algorithm";
      default -> "pointsPerWeight";
    };
  }

  static boolean usesPoints(Algorithm algorithm) {
    return algorithm == Algorithm.RING || algorithm == Algorithm.KETAMA;
  }
}
