package io.github.chash.maven;

import io.github.chash.analysis.Arc;
import io.github.chash.analysis.ChangeReport;
import io.github.chash.analysis.DistributionAnalysis;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.HashSpaceMap;
import io.github.chash.analysis.RingChange;
import io.github.chash.ring.Ring;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs the analysis for {@code chash:report} and writes its three outputs: console lines, {@code
 * report.json} and {@code report.html}. Plain Java, so tests need no Maven.
 *
 * @param report the distribution
 * @param arcs the ring picture (empty above {@link HtmlReportWriter#MAX_RING_NODES} nodes)
 * @param change the what-if result, or null
 * @param baseline the comparison with the baseline, or null
 */
record ReportWriter(
    DistributionReport report, List<Arc> arcs, ChangeReport change, BaselineResult baseline) {

  /** Without a baseline. */
  ReportWriter(DistributionReport report, List<Arc> arcs, ChangeReport change) {
    this(report, arcs, change, null);
  }

  /** This result with the comparison against the baseline (null: none). */
  ReportWriter withBaseline(BaselineResult result) {
    return new ReportWriter(report, arcs, change, result);
  }

  /** Keys placed for the ring picture. */
  static final int PICTURE_KEYS = 200_000;

  /** Sectors of the ring picture: half a degree each. */
  static final int PICTURE_SECTORS = 720;

  /** Analyzes, and computes the picture and the what-if change when asked. */
  static ReportWriter analyze(AnalysisInputs inputs, RingChange change) {
    return analyze(inputs, inputs.ring(), change);
  }

  /** As {@link #analyze(AnalysisInputs, RingChange)}, on the inputs' ring already built. */
  static ReportWriter analyze(AnalysisInputs inputs, Ring ring, RingChange change) {
    DistributionReport report = DistributionAnalysis.analyze(ring, inputs.keys(), inputs.limit());
    List<Arc> arcs =
        ring.size() <= HtmlReportWriter.MAX_RING_NODES
            ? HashSpaceMap.arcs(ring, inputs.keys(), PICTURE_KEYS, PICTURE_SECTORS)
            : List.of();
    ChangeReport what =
        change == null || change.isEmpty()
            ? null
            : DistributionAnalysis.whatIf(ring, change, inputs.keys());
    return new ReportWriter(report, arcs, what);
  }

  /** The console lines. */
  List<String> consoleLines() {
    List<String> lines = new java.util.ArrayList<>(ConsoleTable.render(report));
    if (change != null) {
      lines.addAll(ConsoleTable.render(change));
    }
    if (baseline != null) {
      lines.addAll(baseline.consoleLines());
    }
    return lines;
  }

  /**
   * Writes {@code report.json} and {@code report.html} into the directory, creating it.
   *
   * @throws IOException when a file cannot be written
   */
  void writeFiles(Path directory) throws IOException {
    Files.createDirectories(directory);
    Files.writeString(
        directory.resolve("report.json"),
        JsonReportWriter.write(report, change, baseline),
        StandardCharsets.UTF_8);
    Files.writeString(
        directory.resolve("report.html"),
        HtmlReportWriter.write(report, arcs, change, baseline),
        StandardCharsets.UTF_8);
  }
}
