package io.github.chash.maven;

import io.github.chash.analysis.ChangeReport;
import io.github.chash.analysis.DistributionAnalysis;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.NodeStats;
import io.github.chash.analysis.RingChange;
import io.github.chash.analysis.Violation;
import io.github.chash.ring.Ring;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What one report shows, computed once and rendered by each writer ({@link ConsoleReport}, {@link
 * JsonReport}, {@link HtmlReport}). Plain Java, so tests need no Maven. Immutable.
 *
 * @param file the configuration analyzed
 * @param report the distribution
 * @param change the what-if result, or null
 * @param baseline the comparison with the baseline, or null
 * @param top how many nodes the console lists at most
 */
record ReportData(
    ConfigFile file,
    DistributionReport report,
    ChangeReport change,
    BaselineResult baseline,
    int top) {

  /** Analyzes the inputs' ring (already built), with the what-if change when there is one. */
  static ReportData analyze(AnalysisInputs inputs, Ring ring, RingChange change) {
    DistributionReport report = DistributionAnalysis.analyze(ring, inputs.keys(), inputs.limit());
    ChangeReport what =
        change == null || change.isEmpty()
            ? null
            : DistributionAnalysis.whatIf(ring, change, inputs.keys());
    return new ReportData(inputs.file(), report, what, null, inputs.top());
  }

  /** This result with the comparison against the baseline (null: none). */
  ReportData withBaseline(BaselineResult result) {
    return new ReportData(file, report, change, result, top);
  }

  /** The nodes in natural order of their ids ({@code cache-2} before {@code cache-10}). */
  List<NodeStats> byId() {
    return report.nodes().stream()
        .sorted(Comparator.comparing(NodeStats::id, NaturalOrder.INSTANCE))
        .toList();
  }

  /**
   * The {@code n} nodes of largest {@link DistributionReport#decisiveSkew}, the worst first (ties
   * in natural order).
   */
  List<NodeStats> worst(int n) {
    return report.nodes().stream()
        .sorted(
            Comparator.comparingDouble(report::decisiveSkew)
                .reversed()
                .thenComparing(NodeStats::id, NaturalOrder.INSTANCE))
        .limit(n)
        .toList();
  }

  /** Decimals of every share: three significant digits of the smallest fair share. */
  int decimals() {
    return report.shareDecimals();
  }

  /** Whether the distribution and the movement limits hold. */
  boolean passed() {
    return report.passed() && (baseline == null || baseline.passed());
  }

  /** The remedy of a skew violation. */
  String remedy(Violation v) {
    return Remedies.forSkew(report, v, report.keySource());
  }

  /** The ids of the nodes over the limit. */
  Set<String> violating() {
    Set<String> ids = new HashSet<>();
    report.violations().forEach(v -> ids.add(v.subject()));
    return ids;
  }
}
