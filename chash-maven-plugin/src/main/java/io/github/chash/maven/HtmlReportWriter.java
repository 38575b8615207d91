package io.github.chash.maven;

import io.github.chash.analysis.Arc;
import io.github.chash.analysis.ChangeReport;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.Estimate;
import io.github.chash.analysis.Flow;
import io.github.chash.analysis.NodeStats;
import io.github.chash.analysis.Violation;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code report.html}: one self-contained page (inline CSS and SVG, no scripts, no external
 * assets) with a share-per-node bar chart, a ring picture and the node table. The SVG parts are
 * reused by the site report. Stateless.
 */
final class HtmlReportWriter {
  /** Rings larger than this get no ring picture: the arcs would be unreadable. */
  static final int MAX_RING_NODES = 64;

  /** Rings larger than this get a skew column per node instead of a labelled bar per node. */
  static final int MAX_LABELLED_NODES = 100;

  private static final int BAR_WIDTH = 560;
  private static final int LABEL_WIDTH = 190;

  private HtmlReportWriter() {}

  /** The whole page; {@code arcs} may be empty (no picture), {@code change} null. */
  static String write(DistributionReport r, List<Arc> arcs, ChangeReport change) {
    return write(r, arcs, change, null);
  }

  /** The whole page with the comparison against the baseline ({@code baseline} may be null). */
  static String write(
      DistributionReport r, List<Arc> arcs, ChangeReport change, BaselineResult baseline) {
    StringBuilder b = new StringBuilder(64 * 1024);
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .append("<title>chash key distribution</title>\n<style>\n")
        .append(CSS)
        .append("</style></head><body>\n<main>\n");
    b.append("<h1>Key distribution</h1>\n<p class=\"meta\">")
        .append(
            esc(r.nodes().size() + " nodes · algorithm " + r.settings().algorithm().configName()))
        .append(esc(" · hash " + r.settings().hash().name()))
        .append(esc(" · " + r.settings().pointsPerWeight() + " points per weight"))
        .append(esc(" · " + r.sampleKeys() + " sample keys (" + r.keySource() + ")"))
        .append("</p>\n");
    b.append("<p class=\"status ")
        .append(r.passed() ? "pass" : "fail")
        .append("\">")
        .append(r.passed() ? "PASSED" : "FAILED")
        .append(
            esc(
                String.format(
                    Locale.ROOT, " · max skew %.3f · limit %.2f", r.maxSkew(), r.limit())))
        .append(esc(ConsoleTable.noiseNote(r)))
        .append("</p>\n");
    if (!r.violations().isEmpty()) {
      b.append("<ul class=\"violations\">\n");
      for (Violation v : r.violations()) {
        b.append("<li>").append(esc(v.message())).append("</li>\n");
      }
      b.append("</ul>\n");
    }
    b.append("<div class=\"charts\">\n<section><h2>Share per node</h2>\n")
        .append(barChart(r))
        .append(barLegend())
        .append("</section>\n");
    if (!arcs.isEmpty()) {
      b.append("<section><h2>Ring</h2>\n").append(ringChart(r, arcs)).append("</section>\n");
    }
    b.append("</div>\n");
    if (change != null) {
      b.append("<h2>What if: ")
          .append(esc(change.change().describe()))
          .append("</h2>\n<p>")
          .append(esc(ConsoleTable.percent(change.movedFraction())))
          .append(" of keys move (")
          .append(
              change.estimate() == Estimate.EXACT
                  ? "exact"
                  : "sampled over " + change.sampleKeys() + " keys")
          .append("; ideal ")
          .append(esc(ConsoleTable.percent(change.idealFraction())))
          .append(
              ")</p>\n<table><thead><tr><th>from</th><th>to</th><th>keys</th></tr></thead><tbody>\n");
      for (Flow f : change.flows().stream().limit(200).toList()) {
        b.append("<tr><td>")
            .append(esc(f.from()))
            .append("</td><td>")
            .append(esc(f.to()))
            .append("</td><td class=\"num\">")
            .append(esc(ConsoleTable.percent(f.fraction())))
            .append("</td></tr>\n");
      }
      b.append("</tbody></table>\n");
    }
    if (baseline != null) {
      b.append(baseline.html());
    }
    b.append("<h2>Nodes</h2>\n").append(table(r));
    b.append(
            "<p class=\"note\">Skew = share / fair share. An exact share above the limit always fails;")
        .append(" a sampled share only beyond sampling noise (one-sided binomial z-test, z &gt; ")
        .append(String.format(Locale.ROOT, "%.2f", r.zThreshold()))
        .append(", p &lt; 0.0005). Moved if removed: ~ sampled, + lower bound.</p>\n");
    b.append("</main></body></html>\n");
    return b.toString();
  }

  /** The node table as HTML. */
  static String table(DistributionReport r) {
    StringBuilder b = new StringBuilder();
    b.append("<table><thead><tr><th>node</th><th>weight</th><th>fair share</th>")
        .append("<th>exact share</th><th>sampled share</th><th>skew</th>")
        .append("<th>moved if removed</th></tr></thead><tbody>\n");
    for (NodeStats n : r.nodes()) {
      boolean bad = r.violations().stream().anyMatch(v -> n.id().equals(v.subject()));
      b.append(bad ? "<tr class=\"bad\">" : "<tr>")
          .append("<td>")
          .append(esc(n.id()))
          .append("</td>")
          .append("<td class=\"num\">")
          .append(n.weight())
          .append("</td>")
          .append(numCell(ConsoleTable.percent(n.fairShare())))
          .append(numCell(ConsoleTable.percent(n.exactShare())))
          .append(numCell(ConsoleTable.percent(n.sampledShare())))
          .append(numCell(String.format(Locale.ROOT, "%.3f", n.skew())))
          .append(
              numCell(ConsoleTable.percent(n.movedIfRemoved()) + mark(n.movedIfRemovedEstimate())))
          .append("</tr>\n");
    }
    return b.append("</tbody></table>\n").toString();
  }

  /**
   * Horizontal bars: exact share, sampled share, fair share and limit ticks per node. Rings of more
   * than {@value #MAX_LABELLED_NODES} nodes get one column per node instead: its share divided by
   * its fair share, so that the fair share and the limit are two lines across all nodes.
   */
  static String barChart(DistributionReport r) {
    if (r.nodes().size() > MAX_LABELLED_NODES) {
      return skewColumns(r);
    }
    List<NodeStats> nodes = r.nodes();
    int row = nodes.size() <= 16 ? 26 : nodes.size() <= 64 ? 16 : 10;
    int left = LABEL_WIDTH;
    double max = 0;
    for (NodeStats n : nodes) {
      max = Math.max(max, Math.max(n.exactShare(), r.limit() * n.fairShare()));
      if (!Double.isNaN(n.sampledShare())) {
        max = Math.max(max, n.sampledShare());
      }
    }
    max = niceCeiling(max * 1.05);
    int height = nodes.size() * row + 34;
    int width = left + BAR_WIDTH + 20;
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"share per node\">\n",
            width,
            height,
            width,
            height));
    for (int t = 0; t <= 4; t++) {
      double x = left + BAR_WIDTH * t / 4.0;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"4\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/><text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">%s</text>\n",
              x,
              x,
              height - 24,
              x,
              height - 8,
              esc(ConsoleTable.percent(max * t / 4))));
    }
    for (int i = 0; i < nodes.size(); i++) {
      NodeStats n = nodes.get(i);
      double y = 6 + i * row;
      double barH = Math.max(1, row * 0.62);
      boolean bad = r.violations().stream().anyMatch(v -> n.id().equals(v.subject()));
      b.append("<g><title>")
          .append(
              esc(
                  String.format(
                      Locale.ROOT,
                      "%s: exact %s, sampled %s, fair %s, skew %.3f",
                      n.id(),
                      ConsoleTable.percent(n.exactShare()),
                      ConsoleTable.percent(n.sampledShare()),
                      ConsoleTable.percent(n.fairShare()),
                      n.skew())))
          .append("</title>");
      b.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%.1f\" class=\"label\" text-anchor=\"end\">%s</text>",
              left - 8,
              y + barH * 0.8,
              esc(shorten(n.id(), 28))));
      b.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"%s\" data-node=\"%s\"/>",
              left,
              y,
              BAR_WIDTH * n.exactShare() / max,
              barH,
              barClass(bad),
              esc(n.id())));
      if (!Double.isNaN(n.sampledShare())) {
        b.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"sampled\"/>",
                left,
                y + barH * 0.35,
                BAR_WIDTH * n.sampledShare() / max,
                Math.max(1, barH * 0.3)));
      }
      double fx = left + BAR_WIDTH * n.fairShare() / max;
      double lx = left + BAR_WIDTH * r.limit() * n.fairShare() / max;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"fair\"/>"
                  + "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"limit\"/></g>\n",
              fx,
              y - 2,
              fx,
              y + barH + 2,
              lx,
              y - 2,
              lx,
              y + barH + 2));
    }
    return b.append("</svg>\n").toString();
  }

  /** One column per node of its skew, with the fair share (1.0) and the limit as lines. */
  private static String skewColumns(DistributionReport r) {
    List<NodeStats> nodes = r.nodes();
    int left = 44;
    int plotW = 720;
    int plotH = 240;
    int top = 10;
    double max = Math.max(r.limit(), r.maxSkew()) * 1.1;
    double colW = (double) plotW / nodes.size();
    int width = left + plotW + 16;
    int height = top + plotH + 40;
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"skew per node\">\n",
            width,
            height,
            width,
            height));
    for (int t = 0; t <= 4; t++) {
      double v = max * t / 4;
      double y = top + plotH - plotH * v / max;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/><text x=\"%d\" y=\"%.1f\" class=\"axis\" text-anchor=\"end\">%.2f</text>\n",
              left,
              y,
              left + plotW,
              y,
              left - 6,
              y + 4,
              v));
    }
    for (int i = 0; i < nodes.size(); i++) {
      NodeStats n = nodes.get(i);
      boolean bad = r.violations().stream().anyMatch(v -> n.id().equals(v.subject()));
      double h = plotH * n.exactSkew() / max;
      double x = left + i * colW;
      b.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" class=\"%s\" data-node=\"%s\"><title>%s</title></rect>",
              x,
              top + plotH - h,
              Math.max(0.6, colW * 0.85),
              h,
              barClass(bad),
              esc(n.id()),
              esc(
                  String.format(
                      Locale.ROOT,
                      "%s: exact %s, sampled %s, fair %s, skew %.3f",
                      n.id(),
                      ConsoleTable.percent(n.exactShare()),
                      ConsoleTable.percent(n.sampledShare()),
                      ConsoleTable.percent(n.fairShare()),
                      n.skew()))));
      if (!Double.isNaN(n.sampledSkew())) {
        b.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"1.5\" class=\"sampled\"/>",
                x,
                top + plotH - plotH * n.sampledSkew() / max,
                Math.max(0.6, colW * 0.85)));
      }
      b.append('\n');
    }
    double fairY = top + plotH - plotH / max;
    double limitY = top + plotH - plotH * r.limit() / max;
    b.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"fair\"/>"
                + "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"limit\"/>\n"
                + "<text x=\"%d\" y=\"%d\" class=\"axis\">share / fair share of each of the %d nodes, in node order</text>\n",
            left,
            fairY,
            left + plotW,
            fairY,
            left,
            limitY,
            left + plotW,
            limitY,
            left,
            top + plotH + 22,
            nodes.size()));
    return b.append("</svg>\n").toString();
  }

  /** The key to the share chart's marks; styled by the {@code .legend} and {@code .sw} rules. */
  static String barLegend() {
    return "<p class=\"legend\"><span class=\"sw exact\"></span>exact share "
        + "<span class=\"sw sampled\"></span>sampled share "
        + "<span class=\"sw fair\"></span>fair share "
        + "<span class=\"sw limit\"></span>limit</p>\n";
  }

  /** A donut of arcs coloured by owner, with a legend. */
  static String ringChart(DistributionReport r, List<Arc> arcs) {
    Map<String, String> colour = new HashMap<>();
    List<NodeStats> nodes = r.nodes();
    for (int i = 0; i < nodes.size(); i++) {
      colour.put(nodes.get(i).id(), colour(i));
    }
    int legendRows = nodes.size();
    int size = 300;
    int height = Math.max(size, 20 + legendRows * 18);
    int width = size + 230;
    double cx = size / 2.0;
    double cy = size / 2.0;
    double outer = 135;
    double inner = 88;
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ring\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"ring ownership\">\n",
            width,
            height,
            width,
            height));
    for (Arc a : arcs) {
      double span = a.end() - a.start();
      String fill = colour.getOrDefault(a.owner(), "#999");
      if (span >= 0.999999) {
        b.append(
            String.format(
                Locale.ROOT,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
                cx,
                cy,
                (outer + inner) / 2,
                fill,
                outer - inner));
        continue;
      }
      double a0 = 2 * Math.PI * a.start() - Math.PI / 2;
      double a1 = 2 * Math.PI * a.end() - Math.PI / 2;
      int large = span > 0.5 ? 1 : 0;
      b.append(
          String.format(
              Locale.ROOT,
              "<path d=\"M%.2f %.2fA%.1f %.1f 0 %d 1 %.2f %.2fL%.2f %.2fA%.1f %.1f 0 %d 0 %.2f %.2fZ\" fill=\"%s\"><title>%s</title></path>\n",
              cx + outer * Math.cos(a0),
              cy + outer * Math.sin(a0),
              outer,
              outer,
              large,
              cx + outer * Math.cos(a1),
              cy + outer * Math.sin(a1),
              cx + inner * Math.cos(a1),
              cy + inner * Math.sin(a1),
              inner,
              inner,
              large,
              cx + inner * Math.cos(a0),
              cy + inner * Math.sin(a0),
              fill,
              esc(a.owner())));
    }
    b.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"center\">%d nodes</text>\n"
                + "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"axis\">%s</text>\n",
            cx,
            cy - 2,
            nodes.size(),
            cx,
            cy + 16,
            esc(r.settings().algorithm().configName() + " · " + r.settings().hash().name())));
    for (int i = 0; i < nodes.size(); i++) {
      NodeStats n = nodes.get(i);
      double y = 14 + i * 18;
      b.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%.1f\" width=\"12\" height=\"12\" rx=\"2\" fill=\"%s\"/><text x=\"%d\" y=\"%.1f\" class=\"label\">%s %s</text>\n",
              size + 10,
              y,
              colour(i),
              size + 28,
              y + 10.5,
              esc(shorten(n.id(), 22)),
              esc(ConsoleTable.percent(n.exactShare()))));
    }
    return b.append("</svg>\n").toString();
  }

  /** Distinct colours by the golden angle, so neighbours in the list differ. */
  static String colour(int i) {
    double hue = (i * 137.508 + 210) % 360;
    int light = 42 + (i % 3) * 8;
    return String.format(Locale.ROOT, "hsl(%.0f,62%%,%d%%)", hue, light);
  }

  private static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double step = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
      if (m * step >= v) {
        return m * step;
      }
    }
    return v;
  }

  /** Every node's one bar carries class {@code bar} and {@code data-node}: CI counts them. */
  private static String barClass(boolean violating) {
    return violating ? "bar exact bad" : "bar exact";
  }

  private static String numCell(String s) {
    return "<td class=\"num\">" + esc(s) + "</td>";
  }

  private static String mark(Estimate e) {
    return e == Estimate.EXACT ? "" : e == Estimate.SAMPLED ? " ~" : " +";
  }

  private static String shorten(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static final String CSS =
      """
      body{margin:0;background:#f6f7f9;color:#1f2933;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
      main{max-width:1120px;margin:0 auto;padding:28px 32px 48px}
      h1{font-size:26px;margin:0 0 4px}h2{font-size:17px;margin:26px 0 10px}
      .meta{color:#52606d;margin:0 0 12px}
      .status{display:inline-block;padding:4px 12px;border-radius:14px;font-weight:600;margin:0}
      .status.pass{background:#e3f9e5;color:#0e7c2a}.status.fail{background:#ffe3e3;color:#b42318}
      .violations{background:#fff5f5;border-left:4px solid #d64545;padding:10px 10px 10px 28px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
      .charts{display:flex;flex-wrap:wrap;gap:24px}
      section{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:6px 18px 12px}
      svg text{font:12px system-ui,sans-serif;fill:#3e4c59}svg .axis{fill:#7b8794;font-size:11px}svg .center{font-size:16px;font-weight:600}
      svg .grid{stroke:#e4e7eb;stroke-width:1}
      svg .exact{fill:#4c8df6}svg .exact.bad{fill:#e5534b}svg .sampled{fill:#1f2933;opacity:.55}
      svg .fair{stroke:#0e7c2a;stroke-width:2}svg .limit{stroke:#d64545;stroke-width:2;stroke-dasharray:3 2}
      .legend{color:#52606d;font-size:12px}.sw{display:inline-block;width:14px;height:10px;margin:0 5px 0 12px;vertical-align:middle}
      .sw.exact{background:#4c8df6}.sw.sampled{background:#1f2933;opacity:.55;height:4px}.sw.fair{background:#0e7c2a;width:3px}.sw.limit{background:#d64545;width:3px}
      table{border-collapse:collapse;background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.08);border-radius:8px;overflow:hidden;font-size:13px}
      th,td{padding:6px 12px;border-bottom:1px solid #eef0f2;text-align:left}th{background:#f0f2f5;font-weight:600}
      td.num{text-align:right;font-variant-numeric:tabular-nums}tr.bad td{background:#fff5f5;color:#b42318}
      .note{color:#7b8794;font-size:12px;max-width:860px}
      """;
}
