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
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes {@code report.html}, one self-contained page (inline CSS and SVG, no scripts, no outside
 * assets), and the same content as the body of the {@code mvn site} page.
 *
 * <p>The charts work at any node or point count: each node's load against its fair share (share /
 * fair share, 1.0 and the limit drawn as lines) for up to {@value #MAX_LABELLED_NODES} nodes, or
 * for the {@value #WORST_SHOWN} worst of a larger ring; and a histogram of the skew of every node,
 * with the limit, which aggregates what a person cannot see node by node. Every labelled bar is a
 * {@code rect.bar} with {@code data-node}, every histogram bin a {@code rect.bin} with {@code
 * data-count}; CI checks both in a browser. Stateless.
 */
final class HtmlReport {
  /** Rings up to this size get one labelled bar per node; larger ones their worst nodes. */
  static final int MAX_LABELLED_NODES = 100;

  /** The worst nodes drawn for a larger ring. */
  static final int WORST_SHOWN = 25;

  /** Nodes a table lists before it is folded into a {@code <details>}. */
  static final int OPEN_TABLE_ROWS = 100;

  /** Bins of the skew histogram. */
  static final int BINS = 40;

  /** The chart coordinate width; the SVGs scale to the page width. */
  private static final int WIDTH = 1000;

  private HtmlReport() {}

  /** The whole page. */
  static String page(ReportData data) {
    Html h = new Html(32 * 1024 + data.report().nodes().size() * 96);
    h.doctype()
        .open("html", "lang", "en")
        .open("head")
        .empty("meta", "charset", "utf-8")
        .empty("meta", "name", "viewport", "content", "width=device-width, initial-scale=1")
        .element("title", "chash key distribution: " + data.file().display())
        .style(CSS)
        .close("head")
        .newline()
        .open("body")
        .open("main", "class", "chash-report");
    body(h, data, "h1", "h2");
    return h.close("main").close("body").close("html").newline().toString();
  }

  /** The body of the site page: the same content, styled locally so that any skin shows it. */
  static String fragment(ReportData data) {
    Html h = new Html(32 * 1024 + data.report().nodes().size() * 96);
    h.open("div", "class", "chash-report").style(scoped(CSS));
    body(h, data, "h3", "h4");
    return h.close("div").newline().toString();
  }

  private static void body(Html h, ReportData data, String title, String section) {
    DistributionReport r = data.report();
    h.open("header")
        .element(title, "Key distribution")
        .element("span", data.passed() ? "PASSED" : "FAILED", "class", badge(data.passed()))
        .close("header")
        .newline();
    h.element("p", meta(data), "class", "meta").newline();
    h.element("p", ConsoleReport.verdict(r), "class", "summary").newline();
    if (!r.violations().isEmpty()) {
      h.open("ul", "class", "violations");
      for (Violation v : r.violations()) {
        h.open("li").text(v.message()).open("br").text(data.remedy(v)).close("li");
      }
      h.close("ul").newline();
    }
    h.open("section", "class", "chart")
        .element(section, chartTitle(data))
        .append(loadChart(data))
        .append(legend())
        .close("section")
        .newline();
    h.open("section", "class", "chart")
        .element(section, "Skew of all " + Text.count(r.nodes().size(), "node"))
        .append(histogram(data))
        .element(
            "p",
            "Nodes by exact share / fair share; the line is the sampled skew. Red bins lie over"
                + " the limit "
                + Text.limit(r.limit())
                + ".",
            "class",
            "legend")
        .close("section")
        .newline();
    if (data.change() != null) {
      whatIf(h, data.change(), data.decimals(), section);
    }
    if (data.baseline() != null) {
      baseline(h, data.baseline(), data.decimals(), section);
    }
    h.element(section, "Nodes");
    List<NodeStats> nodes = data.byId();
    if (nodes.size() > OPEN_TABLE_ROWS) {
      h.open("details")
          .element("summary", "All " + Text.count(nodes.size(), "node") + ", by id")
          .append(table(data, nodes))
          .close("details");
    } else {
      h.append(table(data, nodes));
    }
    h.element(
            "p",
            "Skew = share / fair share. An exact share above the limit always fails; a sampled share"
                + " only beyond sampling noise (one-sided binomial z-test, z > "
                + String.format(Locale.ROOT, "%.2f", r.zThreshold())
                + ", p < 0.0005). Moved if removed: ~ sampled, + lower bound.",
            "class",
            "note")
        .newline();
  }

  private static String badge(boolean passed) {
    return passed ? "badge pass" : "badge fail";
  }

  /** {@code PATH · 4 nodes · algorithm ring · hash xxh3 · 1,000 points per weight · ...}. */
  static String meta(ReportData data) {
    DistributionReport r = data.report();
    RingSettings s = r.settings();
    return data.file().display()
        + " · "
        + Text.count(r.nodes().size(), "node")
        + " · algorithm "
        + s.algorithm().configName()
        + " · hash "
        + s.hash().name()
        + (Remedies.usesPoints(s.algorithm())
            ? " · " + Text.number(s.pointsPerWeight()) + " points per weight"
            : "")
        + " · "
        + Text.count(r.sampleKeys(), "sample key")
        + " ("
        + r.keySource()
        + ")";
  }

  private static String chartTitle(ReportData data) {
    int n = data.report().nodes().size();
    return n <= MAX_LABELLED_NODES
        ? "Load against fair share"
        : "Load against fair share: the " + WORST_SHOWN + " nodes of largest skew";
  }

  /** The nodes the load chart labels: all of a small ring, by id; else the worst. */
  static List<NodeStats> labelled(ReportData data) {
    return data.report().nodes().size() <= MAX_LABELLED_NODES
        ? data.byId()
        : data.worst(WORST_SHOWN);
  }

  /**
   * One horizontal bar per labelled node from the fair share (skew 1.0) to its exact skew, a tick
   * at its sampled skew, and the fair share and the limit as lines across all nodes.
   */
  static Html loadChart(ReportData data) {
    DistributionReport r = data.report();
    List<NodeStats> nodes = labelled(data);
    Set<String> bad = data.violating();
    Scale x = Scale.of(r, 200, WIDTH - 80);
    int row = nodes.size() <= 16 ? 26 : nodes.size() <= 40 ? 18 : 12;
    int top = 8;
    int height = top + nodes.size() * row + 30;
    Html h = new Html(4096 + nodes.size() * 400);
    openChart(
        h,
        "load",
        height,
        "share / fair share per node",
        "data-nodes",
        Integer.toString(r.nodes().size()),
        "data-shown",
        Integer.toString(nodes.size()));
    axis(h, x, top, top + nodes.size() * row);
    double barHeight = Math.max(4, row * 0.62);
    for (int i = 0; i < nodes.size(); i++) {
      NodeStats n = nodes.get(i);
      double y = top + i * row + (row - barHeight) / 2;
      double from = x.at(Math.min(1, n.exactSkew()));
      double to = x.at(Math.max(1, n.exactSkew()));
      h.open("g")
          .element("title", tooltip(n, data.decimals()))
          .element(
              "text",
              shorten(n.id(), 26),
              "x",
              num(x.left() - 8),
              "y",
              num(y + barHeight * 0.8),
              "class",
              "label",
              "text-anchor",
              "end")
          .empty(
              "rect",
              "x",
              num(from),
              "y",
              num(y),
              "width",
              num(Math.max(1, to - from)),
              "height",
              num(barHeight),
              "class",
              bad.contains(n.id()) ? "bar bad" : "bar",
              "data-node",
              n.id());
      if (!Double.isNaN(n.sampledSkew())) {
        double sx = x.at(n.sampledSkew());
        h.empty(
            "rect",
            "x",
            num(sx - 1.5),
            "y",
            num(y - 2),
            "width",
            "3",
            "height",
            num(barHeight + 4),
            "class",
            "sampled");
      }
      h.element(
              "text",
              Text.skew(r.decisiveSkew(n)),
              "x",
              num(WIDTH - 74),
              "y",
              num(y + barHeight * 0.8),
              "class",
              "value")
          .close("g")
          .newline();
    }
    limitLines(h, x, r.limit(), top, top + nodes.size() * row);
    return h.close("svg").newline();
  }

  /**
   * A histogram of the nodes' exact skew in {@value #BINS} bins, the sampled skew's histogram as a
   * line over it, the bins over the limit in red.
   */
  static Html histogram(ReportData data) {
    DistributionReport r = data.report();
    Scale x = Scale.of(r, 60, WIDTH - 20);
    int[] exact = new int[BINS];
    int[] sampled = new int[BINS];
    boolean anySampled = false;
    for (NodeStats n : r.nodes()) {
      exact[x.bin(n.exactSkew(), BINS)]++;
      if (!Double.isNaN(n.sampledSkew())) {
        sampled[x.bin(n.sampledSkew(), BINS)]++;
        anySampled = true;
      }
    }
    int most = 1;
    for (int b = 0; b < BINS; b++) {
      most = Math.max(most, Math.max(exact[b], sampled[b]));
    }
    int top = 10;
    int plot = 160;
    int height = top + plot + 30;
    Html h = new Html(8192);
    openChart(h, "histogram", height, "how many nodes have each skew");
    axis(h, x, top, top + plot);
    for (int t = 0; t <= 2; t++) {
      int count = (int) Math.round(most * t / 2.0);
      h.element(
          "text",
          Text.number(count),
          "x",
          num(x.left() - 6),
          "y",
          num(top + plot - plot * count / (double) most + 4),
          "class",
          "axis",
          "text-anchor",
          "end");
    }
    double binWidth = (x.right() - x.left()) / (double) BINS;
    StringBuilder line = new StringBuilder();
    for (int b = 0; b < BINS; b++) {
      double x0 = x.left() + b * binWidth;
      double skewFrom = x.valueAt(x0);
      double skewTo = x.valueAt(x0 + binWidth);
      double barHeight = plot * exact[b] / (double) most;
      h.open("g")
          .element(
              "title",
              Text.count(exact[b], "node")
                  + " with exact skew "
                  + Text.skew(skewFrom)
                  + " to "
                  + Text.skew(skewTo)
                  + (anySampled ? ", " + Text.number(sampled[b]) + " with such sampled skew" : ""))
          .empty(
              "rect",
              "x",
              num(x0 + 0.5),
              "y",
              num(top + plot - barHeight),
              "width",
              num(Math.max(0.5, binWidth - 1)),
              "height",
              num(barHeight),
              "class",
              skewTo > r.limit() ? "bin bad" : "bin",
              "data-count",
              Integer.toString(exact[b]))
          .close("g")
          .newline();
      double ly = top + plot - plot * sampled[b] / (double) most;
      line.append(line.length() == 0 ? "" : " ")
          .append(num(x0))
          .append(',')
          .append(num(ly))
          .append(' ')
          .append(num(x0 + binWidth))
          .append(',')
          .append(num(ly));
    }
    if (anySampled) {
      h.empty("polyline", "points", line.toString(), "class", "sampled-line");
    }
    limitLines(h, x, r.limit(), top, top + plot);
    return h.close("svg").newline();
  }

  /**
   * Opens a chart's {@code <svg>}: {@value #WIDTH} units wide in its coordinates and the page's
   * full width on screen.
   *
   * @param data more attributes, name, value, ...
   */
  private static void openChart(Html h, String kind, int height, String label, String... data) {
    String[] attributes = {
      "xmlns",
      "http://www.w3.org/2000/svg",
      "class",
      kind,
      "viewBox",
      "0 0 " + WIDTH + " " + height,
      "width",
      "100%",
      "role",
      "img",
      "aria-label",
      label
    };
    String[] all = Arrays.copyOf(attributes, attributes.length + data.length);
    System.arraycopy(data, 0, all, attributes.length, data.length);
    h.open("svg", all).newline();
  }

  /** The skew axis: ticks every 0.05, 0.1 or more, labelled below the plot. */
  private static void axis(Html h, Scale x, int top, int bottom) {
    double step = x.tickStep();
    for (double t = Math.ceil(x.min() / step) * step; t <= x.max() + 1e-9; t += step) {
      double px = x.at(t);
      h.empty(
              "line",
              "x1",
              num(px),
              "y1",
              num(top),
              "x2",
              num(px),
              "y2",
              num(bottom),
              "class",
              "grid")
          .element(
              "text",
              String.format(Locale.ROOT, "%.2f", t),
              "x",
              num(px),
              "y",
              num(bottom + 16),
              "class",
              "axis",
              "text-anchor",
              "middle");
    }
    h.newline();
  }

  private static void limitLines(Html h, Scale x, double limit, int top, int bottom) {
    h.empty(
            "line",
            "x1",
            num(x.at(1)),
            "y1",
            num(top - 4),
            "x2",
            num(x.at(1)),
            "y2",
            num(bottom),
            "class",
            "fair")
        .empty(
            "line",
            "x1",
            num(x.at(limit)),
            "y1",
            num(top - 4),
            "x2",
            num(x.at(limit)),
            "y2",
            num(bottom),
            "class",
            "limit")
        .newline();
  }

  private static Html legend() {
    return new Html(512)
        .open("p", "class", "legend")
        .open("span", "class", "sw bar")
        .close("span")
        .text("exact share / fair share")
        .open("span", "class", "sw sampled")
        .close("span")
        .text("sampled")
        .open("span", "class", "sw fair")
        .close("span")
        .text("fair share (1.00)")
        .open("span", "class", "sw limit")
        .close("span")
        .text("limit")
        .close("p")
        .newline();
  }

  private static String tooltip(NodeStats n, int decimals) {
    return n.id()
        + ": weight "
        + n.weight()
        + ", exact "
        + Text.percent(n.exactShare(), decimals)
        + ", sampled "
        + Text.percent(n.sampledShare(), decimals)
        + ", fair "
        + Text.percent(n.fairShare(), decimals)
        + ", skew "
        + Text.skew(n.skew());
  }

  /** The node table; violating nodes' rows are marked. */
  static Html table(ReportData data, List<NodeStats> nodes) {
    int decimals = data.decimals();
    Set<String> bad = data.violating();
    Html h = new Html(1024 + nodes.size() * 96);
    h.open("table").open("thead").open("tr");
    for (String header :
        List.of(
            "node",
            "weight",
            "fair share",
            "exact share",
            "sampled share",
            "skew",
            "moved if removed")) {
      h.element("th", header);
    }
    h.close("tr").close("thead").open("tbody").newline();
    for (NodeStats n : nodes) {
      h.open("tr", "class", bad.contains(n.id()) ? "bad" : null)
          .cell(n.id())
          .cell(Text.number(n.weight()))
          .cell(Text.percent(n.fairShare(), decimals))
          .cell(Text.percent(n.exactShare(), decimals))
          .cell(Text.percent(n.sampledShare(), decimals))
          .cell(Text.skew(n.skew()))
          .cell(Text.percent(n.movedIfRemoved(), decimals) + mark(n.movedIfRemovedEstimate()))
          .newline();
    }
    return h.close("tbody").close("table").newline();
  }

  private static void whatIf(Html h, ChangeReport change, int decimals, String section) {
    h.element(section, "What if: " + change.change().describe())
        .element("p", ConsoleReport.whatIfSummary(change));
    h.open("table").open("thead").open("tr");
    h.element("th", "from").element("th", "to").element("th", "keys");
    h.close("tr").close("thead").open("tbody").newline();
    for (Flow f : change.flows().stream().limit(OPEN_TABLE_ROWS).toList()) {
      h.open("tr").cell(f.from()).cell(f.to()).cell(Text.percent(f.fraction(), decimals)).newline();
    }
    h.close("tbody").close("table").newline();
  }

  private static void baseline(Html h, BaselineResult result, int decimals, String section) {
    BaselineReport report = result.report();
    String violation = result.violation();
    h.open(section)
        .text("Against baseline " + report.baseline() + " ")
        .element("span", violation == null ? "PASSED" : "FAILED", "class", badge(violation == null))
        .close(section)
        .newline();
    h.element("p", report.summary(result.file().display()), "class", "summary")
        .element(
            "p", report.method() + " · limits " + ConsoleReport.limits(result), "class", "note")
        .newline();
    if (violation != null) {
      h.open("ul", "class", "violations").element("li", violation).close("ul").newline();
    }
    List<NodeMovement> nodes = ConsoleReport.movers(report, OPEN_TABLE_ROWS);
    boolean renames = ConsoleReport.anyRenamed(nodes);
    h.open("table").open("thead").open("tr");
    for (String header :
        ConsoleReport.movementRow(renames, "node", "was", "before", "after", "gained", "lost")) {
      h.element("th", header);
    }
    h.close("tr").close("thead").open("tbody").newline();
    for (NodeMovement n : nodes) {
      h.open("tr");
      for (String cell :
          ConsoleReport.movementRow(
              renames,
              n.id(),
              n.previousId() == null ? "" : n.previousId(),
              Text.percent(n.before(), decimals),
              Text.percent(n.after(), decimals),
              Text.percent(n.gained(), decimals),
              Text.percent(n.lost(), decimals))) {
        h.cell(cell);
      }
      h.newline();
    }
    h.close("tbody").close("table").newline();
    if (report.nodes().size() > nodes.size()) {
      h.element(
          "p",
          "The "
              + Text.count(nodes.size(), "node")
              + " that gain or lose most; all "
              + Text.number(report.nodes().size())
              + " are in report.json.",
          "class",
          "note");
    }
  }

  private static String mark(Estimate e) {
    return e == Estimate.EXACT ? "" : e == Estimate.SAMPLED ? " ~" : " +";
  }

  private static String shorten(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  private static String num(double v) {
    return Text.fixed(v, 1);
  }

  /** The page's style sheet with every rule limited to {@code .chash-report}, for the site. */
  static String scoped(String css) {
    StringBuilder b = new StringBuilder();
    for (String rule : css.split("}")) {
      if (rule.isBlank()) {
        continue;
      }
      int brace = rule.indexOf('{');
      StringBuilder selectors = new StringBuilder();
      for (String selector : rule.substring(0, brace).split(",")) {
        String sel = selector.strip();
        selectors
            .append(selectors.length() == 0 ? "" : ",")
            .append(sel.startsWith(".chash-report") ? sel : ".chash-report " + sel);
      }
      b.append(selectors).append(rule.substring(brace)).append('}');
    }
    return b.toString();
  }

  /** The page's style sheet: plain rules (no media queries), so {@link #scoped} can scope each. */
  static final String CSS =
      """
      .chash-report{max-width:1160px;margin:0 auto;padding:24px 28px 48px;color:#1f2933;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
      body{margin:0;background:#f6f7f9}
      header{display:flex;align-items:center;gap:14px;flex-wrap:wrap}
      h1,h3{font-size:26px;margin:0}h2,h4{font-size:17px;margin:26px 0 8px;display:flex;align-items:center;gap:10px}
      .badge{display:inline-block;padding:3px 12px;border-radius:12px;font-size:13px;font-weight:700;letter-spacing:.04em}
      .badge.pass{background:#e3f9e5;color:#0e7c2a;border:1px solid #a8e2b4}.badge.fail{background:#ffe3e3;color:#b42318;border:1px solid #f5b5b0}
      .meta{color:#52606d;margin:6px 0 4px}.summary{margin:4px 0 12px;font-weight:600}
      .violations{background:#fff5f5;border-left:4px solid #d64545;padding:10px 10px 10px 28px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
      .violations li{margin:4px 0}
      section.chart{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:6px 18px 10px;margin:14px 0}
      svg{display:block;width:100%;height:auto}
      svg text{font:12px system-ui,sans-serif;fill:#3e4c59}svg .axis{fill:#7b8794;font-size:11px}svg .value{font-variant-numeric:tabular-nums}
      svg .grid{stroke:#e4e7eb;stroke-width:1}
      svg .bar,svg .bin{fill:#4c8df6}svg .bar.bad,svg .bin.bad{fill:#e5534b}svg .sampled{fill:#1f2933;opacity:.6}
      svg .sampled-line{fill:none;stroke:#1f2933;stroke-width:1.5;opacity:.6}
      svg .fair{stroke:#0e7c2a;stroke-width:2}svg .limit{stroke:#d64545;stroke-width:2;stroke-dasharray:4 3}
      .legend{color:#52606d;font-size:12px;margin:4px 0}.sw{display:inline-block;width:14px;height:10px;margin:0 5px 0 12px;vertical-align:middle}
      .sw.bar{background:#4c8df6}.sw.sampled{background:#1f2933;opacity:.6;width:3px;height:12px}.sw.fair{background:#0e7c2a;width:3px}.sw.limit{background:#d64545;width:3px}
      table{border-collapse:collapse;background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.08);font-size:13px;width:100%}
      th,td{padding:5px 12px;border-bottom:1px solid #eef0f2;text-align:right;font-variant-numeric:tabular-nums}th{background:#f0f2f5;font-weight:600}
      th:first-child,td:first-child{text-align:left}tr.bad td{background:#fff5f5;color:#b42318}
      details summary{cursor:pointer;margin:6px 0}.note{color:#7b8794;font-size:12px;max-width:880px}
      """;

  /**
   * The skew axis of the charts: from below the smallest skew (at most 0.9) to above the largest
   * skew and the limit, in round steps.
   */
  record Scale(double min, double max, double left, double right) {
    static Scale of(DistributionReport r, double left, double right) {
      double lo = 0.9;
      double hi = Math.max(r.limit(), 1.1);
      for (NodeStats n : r.nodes()) {
        for (double s : new double[] {n.exactSkew(), n.sampledSkew()}) {
          if (!Double.isNaN(s)) {
            lo = Math.min(lo, s);
            hi = Math.max(hi, s);
          }
        }
      }
      double step = step(hi - lo);
      return new Scale(
          Math.max(0, Math.floor(lo / step) * step),
          Math.ceil(hi / step) * step + step / 2,
          left,
          right);
    }

    private static double step(double span) {
      for (double s : new double[] {0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100}) {
        if (span / s <= 8) {
          return s;
        }
      }
      return 250;
    }

    double tickStep() {
      return step(max - min);
    }

    /** The x coordinate of a skew. */
    double at(double skew) {
      return left + (right - left) * (skew - min) / (max - min);
    }

    /** The skew at an x coordinate. */
    double valueAt(double px) {
      return min + (px - left) / (right - left) * (max - min);
    }

    /** The histogram bin of a skew. */
    int bin(double skew, int bins) {
      int b = (int) Math.floor((skew - min) / (max - min) * bins);
      return Math.max(0, Math.min(bins - 1, b));
    }
  }
}
