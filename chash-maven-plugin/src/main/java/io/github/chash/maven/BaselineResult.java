package io.github.chash.maven;

import io.github.chash.analysis.BaselineReport;
import io.github.chash.analysis.ChangeCause;
import io.github.chash.analysis.Estimate;
import io.github.chash.analysis.Flow;
import io.github.chash.analysis.NodeMovement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A comparison with the baseline and the movement limits it is held to, rendered for the console,
 * {@code report.json} (the {@code baseline} object) and {@code report.html}. Immutable.
 *
 * @param report the comparison
 * @param maxMoved the largest allowed moved fraction, or null
 * @param maxMovedOverIdeal the largest allowed moved / ideal ratio, or null
 */
record BaselineResult(BaselineReport report, Double maxMoved, Double maxMovedOverIdeal) {
  /** Node rows shown on the console at most. */
  static final int MAX_CONSOLE_NODES = 50;

  /** Flows written to JSON and HTML at most. */
  static final int MAX_FLOWS = 200;

  /** The failure message, or null when the limits hold. */
  String violation() {
    return report.violation(maxMoved, maxMovedOverIdeal);
  }

  /** The console lines: the summary, how it was measured, the limits and the node table. */
  List<String> consoleLines() {
    List<String> lines = new ArrayList<>();
    lines.add(report.summary());
    lines.add("  (" + report.method() + ")");
    String violation = violation();
    if (maxMoved != null || maxMovedOverIdeal != null) {
      lines.add("  limits " + limits() + ": " + (violation == null ? "passed" : "exceeded"));
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"node", "was", "before", "after", "gained", "lost"});
    report.nodes().stream()
        .limit(MAX_CONSOLE_NODES)
        .forEach(
            n ->
                rows.add(
                    new String[] {
                      n.id(),
                      n.previousId() == null ? "" : n.previousId(),
                      ConsoleTable.percent(n.before()),
                      ConsoleTable.percent(n.after()),
                      ConsoleTable.percent(n.gained()),
                      ConsoleTable.percent(n.lost())
                    }));
    lines.addAll(align(rows));
    if (report.nodes().size() > MAX_CONSOLE_NODES) {
      lines.add(
          "... " + (report.nodes().size() - MAX_CONSOLE_NODES) + " more nodes (see report.json)");
    }
    return lines;
  }

  /** The {@code baseline} object of {@code report.json}, indented one level. */
  String json() {
    StringBuilder b = new StringBuilder("{\n");
    field(b, "source", JsonReportWriter.str(report.baseline()));
    field(b, "movedFraction", JsonReportWriter.num(report.movedFraction()));
    field(b, "idealMoved", JsonReportWriter.num(report.idealMoved()));
    // infinite (no membership change, keys move) is written as null, see BaselineReport
    field(b, "movedOverIdeal", JsonReportWriter.num(report.movedOverIdeal()));
    field(b, "randomMoved", JsonReportWriter.num(report.randomMoved()));
    field(b, "exact", Boolean.toString(report.estimate() == Estimate.EXACT));
    field(b, "sampleKeys", Integer.toString(report.sampleKeys()));
    field(b, "method", JsonReportWriter.str(report.method()));
    field(b, "maxMoved", maxMoved == null ? "null" : JsonReportWriter.num(maxMoved));
    field(
        b,
        "maxMovedOverIdeal",
        maxMovedOverIdeal == null ? "null" : JsonReportWriter.num(maxMovedOverIdeal));
    String violation = violation();
    field(b, "passed", Boolean.toString(violation == null));
    field(b, "violation", violation == null ? "null" : JsonReportWriter.str(violation));
    field(b, "cause", JsonReportWriter.str(report.causeText()));
    b.append("    \"causes\": [");
    List<ChangeCause> causes = report.causes();
    for (int i = 0; i < causes.size(); i++) {
      b.append(i == 0 ? "\n" : ",\n")
          .append("      {\"kind\": ")
          .append(JsonReportWriter.str(causes.get(i).kind().jsonName()))
          .append(", \"message\": ")
          .append(JsonReportWriter.str(causes.get(i).message()))
          .append('}');
    }
    b.append(causes.isEmpty() ? "],\n" : "\n    ],\n");
    b.append("    \"nodes\": [");
    List<NodeMovement> nodes = report.nodes();
    for (int i = 0; i < nodes.size(); i++) {
      NodeMovement n = nodes.get(i);
      b.append(i == 0 ? "\n" : ",\n")
          .append("      {\"id\": ")
          .append(JsonReportWriter.str(n.id()))
          .append(", \"previousId\": ")
          .append(n.previousId() == null ? "null" : JsonReportWriter.str(n.previousId()))
          .append(", \"before\": ")
          .append(JsonReportWriter.num(n.before()))
          .append(", \"after\": ")
          .append(JsonReportWriter.num(n.after()))
          .append(", \"gained\": ")
          .append(JsonReportWriter.num(n.gained()))
          .append(", \"lost\": ")
          .append(JsonReportWriter.num(n.lost()))
          .append('}');
    }
    b.append(nodes.isEmpty() ? "],\n" : "\n    ],\n");
    b.append("    \"flows\": [");
    List<Flow> flows = report.flows().stream().limit(MAX_FLOWS).toList();
    for (int i = 0; i < flows.size(); i++) {
      Flow f = flows.get(i);
      b.append(i == 0 ? "\n" : ",\n")
          .append("      {\"from\": ")
          .append(JsonReportWriter.str(f.from()))
          .append(", \"to\": ")
          .append(JsonReportWriter.str(f.to()))
          .append(", \"fraction\": ")
          .append(JsonReportWriter.num(f.fraction()))
          .append('}');
    }
    b.append(flows.isEmpty() ? "]\n" : "\n    ]\n");
    return b.append("  }").toString();
  }

  /** The HTML section of {@code report.html}. */
  String html() {
    String violation = violation();
    StringBuilder b = new StringBuilder();
    b.append("<h2>Against baseline ")
        .append(HtmlReportWriter.esc(report.baseline()))
        .append("</h2>\n");
    b.append("<p class=\"status ")
        .append(violation == null ? "pass" : "fail")
        .append("\">")
        .append(HtmlReportWriter.esc(report.summary()))
        .append("</p>\n<p class=\"note\">")
        .append(HtmlReportWriter.esc(report.method()));
    if (maxMoved != null || maxMovedOverIdeal != null) {
      b.append(HtmlReportWriter.esc(" · limits " + limits()));
    }
    b.append("</p>\n");
    if (violation != null) {
      b.append("<ul class=\"violations\"><li>")
          .append(HtmlReportWriter.esc(violation))
          .append("</li></ul>\n");
    }
    b.append("<table><thead><tr><th>node</th><th>was</th><th>before</th><th>after</th>")
        .append("<th>gained</th><th>lost</th></tr></thead><tbody>\n");
    for (NodeMovement n : report.nodes()) {
      b.append("<tr><td>")
          .append(HtmlReportWriter.esc(n.id()))
          .append("</td><td>")
          .append(n.previousId() == null ? "" : HtmlReportWriter.esc(n.previousId()));
      for (double d : new double[] {n.before(), n.after(), n.gained(), n.lost()}) {
        b.append("</td><td class=\"num\">").append(HtmlReportWriter.esc(ConsoleTable.percent(d)));
      }
      b.append("</td></tr>\n");
    }
    b.append("</tbody></table>\n");
    return b.toString();
  }

  private String limits() {
    List<String> parts = new ArrayList<>();
    if (maxMoved != null) {
      parts.add(String.format(Locale.ROOT, "maxMoved %.1f%%", maxMoved * 100));
    }
    if (maxMovedOverIdeal != null) {
      parts.add(String.format(Locale.ROOT, "maxMovedOverIdeal %.2f", maxMovedOverIdeal));
    }
    return String.join(", ", parts);
  }

  private static void field(StringBuilder b, String name, String value) {
    b.append("    ").append(JsonReportWriter.str(name)).append(": ").append(value).append(",\n");
  }

  private static List<String> align(List<String[]> rows) {
    int cols = rows.get(0).length;
    int[] width = new int[cols];
    for (String[] r : rows) {
      for (int c = 0; c < cols; c++) {
        width[c] = Math.max(width[c], r[c].length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (String[] r : rows) {
      StringBuilder b = new StringBuilder("  ");
      for (int c = 0; c < cols; c++) {
        String pad = " ".repeat(width[c] - r[c].length());
        // ids left, percentages right
        b.append(c < 2 ? r[c] + pad : pad + r[c]).append("  ");
      }
      lines.add(b.toString().stripTrailing());
    }
    return lines;
  }
}
