package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
  private static final Pattern BIN =
      Pattern.compile("class=\"bin(?: bad)?\" data-count=\"(\\d+)\"");

  private static int binTotal(String html) {
    Matcher m = BIN.matcher(html);
    int total = 0;
    int bins = 0;
    while (m.find()) {
      total += Integer.parseInt(m.group(1));
      bins++;
    }
    assertThat(bins).isEqualTo(HtmlReport.BINS);
    return total;
  }

  private static int count(String html, String needle) {
    return html.split(Pattern.quote(needle), -1).length - 1;
  }

  @Test
  void page_smallRing_isSelfContained_withABarPerNodeAndEveryNodeInTheHistogram() {
    ReportData data = Reports.report(Reports.nodes(4, true), 1.2, 20_000, 10);
    String html = HtmlReport.page(data);

    assertThat(html).startsWith("<!DOCTYPE html>\n<html lang=\"en\">");
    assertThat(html).doesNotContain("<script", "<link", "src=\"http", "href=\"http");
    assertThat(html).contains("<span class=\"badge pass\">PASSED</span>");
    assertThat(html)
        .contains(
            "orders/src/main/resources/chash.yaml · 4 nodes · algorithm ring · hash xxh3 · 1,000"
                + " points per weight · 20,000 sample keys (users:{n})");
    for (int i = 0; i < 4; i++) {
      assertThat(html).containsOnlyOnce("data-node=\"cache-" + i + "\"");
    }
    assertThat(count(html, "class=\"bar")).isEqualTo(4);
    assertThat(html).contains("data-nodes=\"4\" data-shown=\"4\"");
    assertThat(binTotal(html)).isEqualTo(4);
    assertThat(html).contains("width=\"100%\"").doesNotContain("<details>");
  }

  @Test
  void page_failingRing_hasAFailBadge_markedRows_andRemedies() {
    ReportData data =
        Reports.report(
            "ring: {hash: jdk, pointsPerWeight: 3}\nnodes: [{id: a}, {id: b}, {id: c}]\n",
            1.2,
            10_000,
            10);
    String html = HtmlReport.page(data);
    assertThat(html).contains("<span class=\"badge fail\">FAILED</span>");
    assertThat(html).contains("<ul class=\"violations\"><li>node ").contains("fix: raise");
    assertThat(html).contains("class=\"bar bad\"").contains("<tr class=\"bad\">");
  }

  @Test
  void page_tenThousandNodes_aggregates_theWorstLabelled_allNodesInTheFoldedTable() {
    ReportData data = Reports.report(Reports.nodes(10_000, true), 1.2, 100_000, 10);
    String html = HtmlReport.page(data);

    assertThat(count(html, "class=\"bar")).isEqualTo(HtmlReport.WORST_SHOWN);
    assertThat(html).contains("data-nodes=\"10000\" data-shown=\"25\"");
    assertThat(binTotal(html)).isEqualTo(10_000);
    assertThat(count(html, "<rect")).isLessThan(HtmlReport.WORST_SHOWN * 2 + HtmlReport.BINS + 1);
    assertThat(html).contains("<details><summary>All 10,000 nodes, by id</summary>");
    assertThat(count(html, "<tr")).isEqualTo(10_000 + 1);
    assertThat(html.length()).isLessThan(1_200_000);
  }

  @Test
  void page_escapesNodeIds() {
    ReportData data = Reports.report("nodes: [{id: \"a<b>&\"}, {id: \"c\\\"d\"}]\n", 1.5, 1000, 10);
    String html = HtmlReport.page(data);
    assertThat(html).contains("a&lt;b&gt;&amp;").doesNotContain("a<b>");
    assertThat(html).contains("data-node=\"c&quot;d\"");
  }

  @Test
  void fragment_scopesEveryStyleRuleToTheReport() {
    String fragment = HtmlReport.fragment(Reports.report(Reports.nodes(3, false), 1.2, 1000, 10));
    assertThat(fragment).startsWith("<div class=\"chash-report\"><style>");
    String css = fragment.substring(fragment.indexOf("<style>") + 7, fragment.indexOf("</style>"));
    for (String rule : css.split("}")) {
      if (rule.isBlank()) {
        continue;
      }
      for (String selector : rule.substring(0, rule.indexOf('{')).split(",")) {
        assertThat(selector.strip()).startsWith(".chash-report");
      }
    }
    assertThat(fragment).contains("<h3>Key distribution</h3>").doesNotContain("<h1>");
  }

  @Test
  void page_withBaseline_showsItsBadgeAndSummary() {
    ReportData data =
        Reports.withBaseline(Reports.nodes(10, false), Reports.nodes(11, false), 10_000);
    assertThat(HtmlReport.page(data))
        .contains(
            "<h2>Against baseline git:main@1a2b3c4 <span class=\"badge pass\">PASSED</span></h2>")
        .contains("key movement of orders/src/main/resources/chash.yaml against baseline")
        .contains("<th>node</th><th>before</th>")
        .doesNotContain("<th>was</th>");
    String before = "nodes:\n  - { id: a, maximumSize: 10 }\n  - { id: b, maximumSize: 20 }\n";
    assertThat(
            HtmlReport.page(
                Reports.withBaseline(before, before.replace("id: b,", "id: b2,"), 10_000)))
        .contains("<th>node</th><th>was</th><th>before</th>")
        .contains("<td>b2<td>b<td>");
  }
}
