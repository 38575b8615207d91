package io.github.chash.maven;

import io.github.chash.analysis.ChangeReport;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.Estimate;
import io.github.chash.analysis.Flow;
import io.github.chash.analysis.NodeStats;
import io.github.chash.analysis.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Renders reports as aligned plain-text lines for the build log. Stateless. */
final class ConsoleTable {
  private static final String[] HEADERS = {
    "node", "weight", "fair share", "exact share", "sampled share", "skew", "moved if removed"
  };

  /** Flows listed at most in a what-if table. */
  static final int MAX_FLOWS = 20;

  private ConsoleTable() {}

  /** The distribution table, a summary line and any violations. */
  static List<String> render(DistributionReport report) {
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADERS);
    for (NodeStats n : report.nodes()) {
      rows.add(
          new String[] {
            n.id(),
            Integer.toString(n.weight()),
            percent(n.fairShare()),
            percent(n.exactShare()),
            percent(n.sampledShare()),
            String.format(Locale.ROOT, "%.3f", n.skew()),
            percent(n.movedIfRemoved()) + marker(n.movedIfRemovedEstimate())
          });
    }
    List<String> lines = align(rows, 1, 2, 3, 4, 5, 6);
    lines.add(0, summary(report));
    if (report.nodes().stream().anyMatch(n -> n.movedIfRemovedEstimate() != Estimate.EXACT)) {
      lines.add("(moved if removed: ~ sampled, + lower bound only)");
    }
    lines.add(
        String.format(
            Locale.ROOT,
            "max skew %.3f, limit %.2f: %s",
            report.maxSkew(),
            report.limit(),
            report.passed()
                ? "passed" + noiseNote(report)
                : report.violations().size() + " violation(s)"));
    for (Violation v : report.violations()) {
      lines.add("  " + v.message());
    }
    return lines;
  }

  /** The what-if lines: moved fraction, ideal, and the largest flows. */
  static List<String> render(ChangeReport change) {
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            "what if: %s -> %s of keys move (%s; ideal %s)",
            change.change().describe(),
            percent(change.movedFraction()),
            change.estimate() == Estimate.EXACT
                ? "exact"
                : "sampled over " + change.sampleKeys() + " keys",
            percent(change.idealFraction())));
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"from", "to", "keys"});
    change.flows().stream()
        .limit(MAX_FLOWS)
        .forEach(f -> rows.add(new String[] {f.from(), f.to(), percent(f.fraction())}));
    lines.addAll(align(rows, 2));
    if (change.flows().size() > MAX_FLOWS) {
      double rest = change.flows().stream().skip(MAX_FLOWS).mapToDouble(Flow::fraction).sum();
      lines.add(
          "... "
              + (change.flows().size() - MAX_FLOWS)
              + " more flows, "
              + percent(rest)
              + " of keys (see report.json)");
    }
    return lines;
  }

  /** Explains a pass whose maximum skew is above the limit: only sampled skew can be. */
  static String noiseNote(DistributionReport r) {
    return r.passed() && r.maxSkew() > r.limit()
        ? " (the sampled skew above the limit is within sampling noise)"
        : "";
  }

  private static String summary(DistributionReport r) {
    return String.format(
        Locale.ROOT,
        "chash key distribution: %d nodes, algorithm %s, hash %s, pointsPerWeight %d, %d sample keys (%s)",
        r.nodes().size(),
        r.settings().algorithm().configName(),
        r.settings().hash().name(),
        r.settings().pointsPerWeight(),
        r.sampleKeys(),
        r.keySource());
  }

  private static String marker(Estimate e) {
    return switch (e) {
      case EXACT -> " ";
      case SAMPLED -> "~";
      case LOWER_BOUND -> "+";
    };
  }

  static String percent(double share) {
    return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.2f%%", share * 100);
  }

  /** Pads columns; the listed ones are right-aligned. */
  private static List<String> align(List<String[]> rows, int... rightAligned) {
    int cols = rows.get(0).length;
    int[] width = new int[cols];
    for (String[] r : rows) {
      for (int c = 0; c < cols; c++) {
        width[c] = Math.max(width[c], r[c].length());
      }
    }
    boolean[] right = new boolean[cols];
    for (int c : rightAligned) {
      right[c] = true;
    }
    List<String> lines = new ArrayList<>();
    for (String[] r : rows) {
      StringBuilder b = new StringBuilder();
      for (int c = 0; c < cols; c++) {
        if (c > 0) {
          b.append("  ");
        }
        String pad = " ".repeat(width[c] - r[c].length());
        b.append(right[c] ? pad + r[c] : r[c] + pad);
      }
      lines.add(b.toString().stripTrailing());
    }
    return lines;
  }
}
