package io.github.chash.maven;

import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.Violation;
import java.util.Locale;

/** The body of the site page: status, charts and table, styled locally so any skin shows it. */
final class HtmlSiteFragment {
  private HtmlSiteFragment() {}

  static String of(ReportWriter result) {
    DistributionReport r = result.report();
    StringBuilder b = new StringBuilder();
    b.append("<div class=\"chash-report\"><style>")
        .append(".chash-report svg text{font:12px sans-serif;fill:#3e4c59}")
        .append(
            ".chash-report svg .axis{fill:#7b8794;font-size:11px}.chash-report svg .grid{stroke:#e4e7eb}")
        .append(".chash-report svg .exact{fill:#4c8df6}.chash-report svg .exact.bad{fill:#e5534b}")
        .append(".chash-report svg .sampled{fill:#1f2933;opacity:.55}")
        .append(".chash-report svg .fair{stroke:#0e7c2a;stroke-width:2}")
        .append(".chash-report svg .limit{stroke:#d64545;stroke-width:2;stroke-dasharray:3 2}")
        .append(".chash-report .legend{color:#52606d;font-size:12px}")
        .append(
            ".chash-report .sw{display:inline-block;width:14px;height:10px;margin:0 5px 0 12px;vertical-align:middle}")
        .append(
            ".chash-report .sw.exact{background:#4c8df6}.chash-report .sw.sampled{background:#1f2933;opacity:.55;height:4px}")
        .append(
            ".chash-report .sw.fair{background:#0e7c2a;width:3px}.chash-report .sw.limit{background:#d64545;width:3px}")
        .append(
            ".chash-report th,.chash-report td{padding:3px 10px}.chash-report td.num{text-align:right}.chash-report tr.bad td{color:#b42318}")
        .append("</style>\n<p>")
        .append(
            HtmlReportWriter.esc(
                String.format(
                    Locale.ROOT,
                    "%d nodes, algorithm %s, hash %s, %d points per weight, %d sample keys (%s). "
                        + "%s: max skew %.3f, limit %.2f.",
                    r.nodes().size(),
                    r.settings().algorithm().configName(),
                    r.settings().hash().name(),
                    r.settings().pointsPerWeight(),
                    r.sampleKeys(),
                    r.keySource(),
                    r.passed() ? "Passed" : "Failed",
                    r.maxSkew(),
                    r.limit())))
        .append("</p>\n");
    if (!r.violations().isEmpty()) {
      b.append("<ul>");
      for (Violation v : r.violations()) {
        b.append("<li>").append(HtmlReportWriter.esc(v.message())).append("</li>");
      }
      b.append("</ul>\n");
    }
    b.append(HtmlReportWriter.barChart(r)).append(HtmlReportWriter.barLegend());
    if (!result.arcs().isEmpty()) {
      b.append(HtmlReportWriter.ringChart(r, result.arcs()));
    }
    b.append(HtmlReportWriter.table(r));
    return b.append("</div>\n").toString();
  }
}
