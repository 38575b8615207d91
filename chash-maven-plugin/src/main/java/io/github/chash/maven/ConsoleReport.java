package io.github.chash.maven;

import io.github.chash.analysis.BaselineReport;
import io.github.chash.analysis.ChangeReport;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.Estimate;
import io.github.chash.analysis.Flow;
import io.github.chash.analysis.NodeMovement;
import io.github.chash.analysis.NodeStats;
import io.github.chash.analysis.Violation;
import io.github.chash.ring.RingSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Renders a report as plain-text lines for the build log: every summary and failure line names the
 * configuration file, so lines of parallel module builds can be told apart. Stateless.
 */
final class ConsoleReport {
  private static final String[] HEADERS = {
    "node",
    "weight",
    "fair share",
    "exact share",
    "sampled share",
    "exact skew",
    "sampled skew",
    "moved if removed"
  };

  private ConsoleReport() {}

  /** Every line of {@code chash:report}: the distribution, the what-if and the baseline. */
  static List<String> lines(ReportData data) {
    List<String> lines = new ArrayList<>(distribution(data));
    if (data.change() != null) {
      lines.addAll(whatIf(data.change(), data.decimals(), data.top()));
    }
    if (data.baseline() != null) {
      lines.addAll(baseline(data.baseline(), data.decimals(), data.top()));
    }
    return lines;
  }

  /** The summary, the node table (the worst {@code top} of a larger ring), the verdict. */
  static List<String> distribution(ReportData data) {
    DistributionReport r = data.report();
    int decimals = data.decimals();
    List<String> lines = new ArrayList<>();
    lines.add("chash key distribution of " + data.file().display() + ": " + settings(r));
    List<NodeStats> shown;
    if (r.nodes().size() > data.top()) {
      shown = data.worst(data.top());
      lines.add(
          "the "
              + Text.count(data.top(), "node")
              + " of largest skew (exact, or sampled beyond sampling noise), of "
              + Text.number(r.nodes().size())
              + " (all in report.json and report.html; -Dchash.top=N lists more):");
    } else {
      shown = data.byId();
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADERS);
    for (NodeStats n : shown) {
      rows.add(
          new String[] {
            n.id(),
            Text.number(n.weight()),
            Text.percent(n.fairShare(), decimals),
            Text.percent(n.exactShare(), decimals),
            Text.percent(n.sampledShare(), decimals),
            Text.skew(n.exactSkew()),
            Text.skew(n.sampledSkew()),
            Text.percent(n.movedIfRemoved(), decimals) + marker(n.movedIfRemovedEstimate())
          });
    }
    lines.addAll(align(rows, 1, 2, 3, 4, 5, 6, 7));
    if (shown.stream().anyMatch(n -> n.movedIfRemovedEstimate() != Estimate.EXACT)) {
      lines.add("(moved if removed: ~ sampled, + lower bound only)");
    }
    lines.add(verdict(r));
    for (Violation v : r.violations()) {
      lines.add("  " + v.message() + "; " + data.remedy(v));
    }
    return lines;
  }

  /** {@code 4 nodes, algorithm ring, hash xxh3, pointsPerWeight 1000, 1,000,000 sample keys}. */
  static String settings(DistributionReport r) {
    RingSettings s = r.settings();
    return Text.count(r.nodes().size(), "node")
        + ", algorithm "
        + s.algorithm().configName()
        + ", hash "
        + s.hash().name()
        + (Remedies.usesPoints(s.algorithm()) ? ", pointsPerWeight " + s.pointsPerWeight() : "")
        + ", "
        + Text.count(r.sampleKeys(), "sample key")
        + " ("
        + r.keySource()
        + ")";
  }

  /** {@code max skew 1.094 on cache-0417, limit 1.25: passed} (or the violation count). */
  static String verdict(DistributionReport r) {
    return "max skew "
        + worstSkew(r)
        + ", limit "
        + Text.limit(r.limit())
        + ": "
        + (r.passed()
            ? "passed" + noiseNote(r)
            : Text.count(r.violations().size(), "node") + " over the limit");
  }

  /** The line of a passing {@code chash:check}. */
  static String checkPassed(ReportData data) {
    DistributionReport r = data.report();
    return "chash check passed for "
        + data.file().display()
        + ": max skew "
        + worstSkew(r)
        + " (largest exact "
        + Text.skew(r.maxExactSkew())
        + ", largest sampled "
        + Text.skew(r.maxSampledSkew())
        + " over "
        + Text.count(r.sampleKeys(), "key")
        + "), limit "
        + Text.limit(r.limit())
        + noiseNote(r);
  }

  /**
   * The message of a failing {@code chash:check}: one header naming the file, then one line per
   * node over the limit and one for the movement, each with its remedy.
   */
  static String checkFailed(ReportData data) {
    DistributionReport r = data.report();
    String movement = data.baseline() == null ? null : data.baseline().violation();
    List<String> parts = new ArrayList<>();
    if (!r.passed()) {
      parts.add(
          Text.count(r.violations().size(), "node") + " over maxSkew " + Text.limit(r.limit()));
    }
    if (movement != null) {
      parts.add("key movement over its limits");
    }
    StringBuilder b =
        new StringBuilder("chash check failed for ")
            .append(data.file().display())
            .append(": ")
            .append(String.join(", ", parts))
            .append(':');
    for (Violation v : r.violations()) {
      b.append("\n  ").append(v.message()).append("; ").append(data.remedy(v));
    }
    if (movement != null) {
      b.append("\n  ").append(movement);
    }
    return b.toString();
  }

  /**
   * Explains sampled skews over the limit that do not count: they are within sampling noise (else
   * they would decide).
   */
  static String noiseNote(DistributionReport r) {
    NodeStats worst = r.worstNode();
    return worst != null
            && r.maxSampledSkew() > r.limit()
            && r.maxSampledSkew() > r.decisiveSkew(worst)
        ? " (sampled skews up to " + Text.skew(r.maxSampledSkew()) + " are within sampling noise)"
        : "";
  }

  /** {@code 1.094 on cache-0417}: the deciding skew of the worst node. */
  private static String worstSkew(DistributionReport r) {
    NodeStats worst = r.worstNode();
    return worst == null ? "n/a" : Text.skew(r.decisiveSkew(worst)) + " on " + worst.id();
  }

  /** The what-if lines: moved fraction, ideal, and the largest flows. */
  static List<String> whatIf(ChangeReport change, int decimals, int top) {
    List<String> lines = new ArrayList<>();
    lines.add("what if: " + change.change().describe() + " -> " + whatIfSummary(change));
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"from", "to", "keys"});
    change.flows().stream()
        .limit(top)
        .forEach(
            f -> rows.add(new String[] {f.from(), f.to(), Text.percent(f.fraction(), decimals)}));
    lines.addAll(align(rows, 2));
    if (change.flows().size() > top) {
      double rest = change.flows().stream().skip(top).mapToDouble(Flow::fraction).sum();
      lines.add(
          "... "
              + Text.count(change.flows().size() - top, "more flow")
              + ", "
              + Text.percent(rest, decimals)
              + " of keys (see report.json)");
    }
    return lines;
  }

  /** {@code 33.41% of keys move (exact; ideal 33.33%)}. */
  static String whatIfSummary(ChangeReport change) {
    return Text.percent(change.movedFraction(), 2)
        + " of keys move ("
        + (change.estimate() == Estimate.EXACT
            ? "exact"
            : "sampled over " + Text.count(change.sampleKeys(), "key"))
        + "; ideal "
        + Text.percent(change.idealFraction(), 2)
        + ")";
  }

  /** The summary line of a comparison with the baseline. */
  static String baselineSummary(BaselineResult result) {
    return "chash " + result.report().summary(result.file().display());
  }

  /** The baseline lines: summary, method, limits, and the nodes that move most. */
  static List<String> baseline(BaselineResult result, int decimals, int top) {
    BaselineReport report = result.report();
    List<String> lines = new ArrayList<>();
    lines.add(baselineSummary(result));
    lines.add("  (" + report.method() + ")");
    lines.add("  limits " + limits(result) + ": " + (result.passed() ? "passed" : "exceeded"));
    if (!result.passed()) {
      lines.add("  " + result.violation());
    }
    List<NodeMovement> nodes = movers(report, top);
    boolean renames = anyRenamed(nodes);
    List<String[]> rows = new ArrayList<>();
    rows.add(movementRow(renames, "node", "was", "before", "after", "gained", "lost"));
    for (NodeMovement n : nodes) {
      rows.add(
          movementRow(
              renames,
              n.id(),
              n.previousId() == null ? "" : n.previousId(),
              Text.percent(n.before(), decimals),
              Text.percent(n.after(), decimals),
              Text.percent(n.gained(), decimals),
              Text.percent(n.lost(), decimals)));
    }
    int shares = renames ? 2 : 1; // the first right-aligned column: "before"
    for (String line : align(rows, shares, shares + 1, shares + 2, shares + 3)) {
      lines.add("  " + line);
    }
    if (report.nodes().size() > nodes.size()) {
      lines.add(
          "  ... "
              + Text.count(report.nodes().size() - nodes.size(), "more node")
              + " (all in report.json and report.html)");
    }
    return lines;
  }

  /**
   * {@return whether a listed node was renamed: only then do the tables have a "was" column (the
   * node's id in the baseline), which would be empty on every other row}
   *
   * @param nodes the listed nodes
   */
  static boolean anyRenamed(List<NodeMovement> nodes) {
    return nodes.stream().anyMatch(n -> n.previousId() != null);
  }

  /**
   * {@return a row of the movement table: its cells, without "was" (the second) unless {@code
   * renames}}
   *
   * @param renames whether the table has the "was" column
   * @param cells node, was, before, after, gained, lost
   */
  static String[] movementRow(boolean renames, String... cells) {
    if (renames) {
      return cells;
    }
    String[] row = new String[cells.length - 1];
    row[0] = cells[0];
    System.arraycopy(cells, 2, row, 1, cells.length - 2);
    return row;
  }

  /**
   * The nodes of a comparison to list: all in natural order up to {@code top}, else the {@code top}
   * that gain or lose most.
   */
  static List<NodeMovement> movers(BaselineReport report, int top) {
    Comparator<NodeMovement> byId = Comparator.comparing(NodeMovement::id, NaturalOrder.INSTANCE);
    if (report.nodes().size() <= top) {
      return report.nodes().stream().sorted(byId).toList();
    }
    return report.nodes().stream()
        .sorted(
            Comparator.comparingDouble((NodeMovement n) -> n.gained() + n.lost())
                .reversed()
                .thenComparing(byId))
        .limit(top)
        .toList();
  }

  /** {@code maxMoved 30.0% (default), maxMovedOverIdeal 2.00 (default)}. */
  static String limits(BaselineResult result) {
    return "maxMoved "
        + Text.percent(result.maxMoved(), 1)
        + (result.maxMovedDefaulted() ? " (default)" : "")
        + ", maxMovedOverIdeal "
        + Text.limit(result.maxMovedOverIdeal())
        + (result.maxMovedOverIdealDefaulted() ? " (default)" : "");
  }

  private static String marker(Estimate e) {
    return switch (e) {
      case EXACT -> " ";
      case SAMPLED -> "~";
      case LOWER_BOUND -> "+";
    };
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
