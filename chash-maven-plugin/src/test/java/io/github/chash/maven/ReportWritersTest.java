package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.analysis.DistributionAnalysis;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.KeySource;
import io.github.chash.analysis.NodeStats;
import io.github.chash.analysis.RingChange;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.CheckConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWritersTest {

  private static final RingSettings SEEDS =
      RingSettings.builder().algorithm(Algorithm.RING).hash("jdk").pointsPerWeight(3).build();

  private static final List<Node> SERVERS =
      List.of(Node.of("192.168.0.0:111"), Node.of("192.168.0.1:111"), Node.of("192.168.0.2:111"));

  private static DistributionReport seedReport() {
    return DistributionAnalysis.analyze(
        Rings.create(SEEDS, SERVERS), KeySource.pattern("10.20.12.{n}", 20_000), 1.2);
  }

  private static DistributionReport balancedReport() {
    return DistributionAnalysis.analyze(
        Rings.create(RingSettings.defaults(), List.of(Node.of("a"), Node.of("b", 2), Node.of("c"))),
        KeySource.pattern("users:{n}", 50_000),
        1.2);
  }

  @Test
  void consoleTable_hasHeaderAndOneAlignedRowPerNode() {
    List<String> lines = ConsoleTable.render(balancedReport());
    assertThat(lines.get(0))
        .startsWith("chash key distribution: 3 nodes, algorithm ring, hash xxh3");
    assertThat(lines.get(1))
        .startsWith("node")
        .contains(
            "weight", "fair share", "exact share", "sampled share", "skew", "moved if removed");
    assertThat(lines.get(2)).startsWith("a ").contains("25.00%");
    assertThat(lines.get(3)).startsWith("b ").contains("50.00%");
    assertThat(lines.get(2).indexOf("25.00%")).isEqualTo(lines.get(4).indexOf("25.00%"));
    assertThat(lines.get(lines.size() - 1)).startsWith("max skew ").endsWith("passed");
  }

  @Test
  void failureMessage_listsEveryViolationWithNodeSharesSkewAndLimit() {
    DistributionReport report = seedReport();
    String message = CheckMojo.failureMessage(report);
    assertThat(report.violations()).isNotEmpty();
    assertThat(message)
        .startsWith("chash check failed: " + report.violations().size() + " violation");
    report.violations().forEach(v -> assertThat(message).contains("\n  " + v.message()));
    assertThat(message).contains("fair share 33.33%", "> limit 1.20");
  }

  @Test
  void passMessage_namesTheMaximumSkew() {
    DistributionReport report = balancedReport();
    assertThat(CheckMojo.passMessage(report))
        .startsWith(
            String.format(
                java.util.Locale.ROOT, "chash check passed: max skew %.3f", report.maxSkew()))
        .contains("over 50000 keys", "limit 1.20");
  }

  @Test
  void json_hasTheDocumentedFields() {
    DistributionReport report = seedReport();
    String json = JsonReportWriter.write(report, null);
    assertThat(json)
        .contains("\"algorithm\": \"ring\"", "\"hash\": \"jdk\"", "\"pointsPerWeight\": 3")
        .contains("\"sampleKeys\": 20000", "\"limit\": 1.2", "\"passed\": false")
        .contains("\"maxSkew\": " + report.maxSkew())
        .contains("\"violations\": [", "\"rule\": \"exact-skew\"");
    for (NodeStats n : report.nodes()) {
      assertThat(json)
          .contains(
              "{\"id\": \""
                  + n.id()
                  + "\", \"weight\": 1, \"fairShare\": "
                  + n.fairShare()
                  + ", \"exactShare\": "
                  + n.exactShare()
                  + ", \"sampledShare\": "
                  + n.sampledShare());
    }
  }

  @Test
  void json_escapesAndWritesNaNAsNull() {
    assertThat(JsonReportWriter.str("a\"b\\c\nd\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\\u0001\"");
    assertThat(JsonReportWriter.num(Double.NaN)).isEqualTo("null");
  }

  @Test
  void html_isSelfContainedWithBarsAndRing(@TempDir Path dir) throws IOException {
    AnalysisInputs inputs =
        new AnalysisInputs(
            config(SEEDS, "10.20.12.{n}"), 1.2, KeySource.pattern("10.20.12.{n}", 20_000));
    ReportWriter result = ReportWriter.analyze(inputs, RingChange.parse(null, "192.168.0.1:111"));
    result.writeFiles(dir);
    String html = Files.readString(dir.resolve("report.html"));
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("<svg", "class=\"bars\"", "class=\"ring\"");
    assertThat(html).doesNotContain("<script", "<link", "src=\"http", "href=\"http");
    assertThat(html).contains("FAILED", "192.168.0.2:111", "What if: remove 192.168.0.1:111");
    for (Node n : SERVERS) {
      assertThat(html).containsOnlyOnce("data-node=\"" + n.id() + "\"");
    }
    assertThat(html.split("class=\"bar ", -1)).hasSize(SERVERS.size() + 1);
    assertThat(Files.readString(dir.resolve("report.json")))
        .contains("\"whatIf\": {", "\"estimate\": \"exact\"");
  }

  @Test
  void html_largeRingHasBarsButNoRingPicture(@TempDir Path dir) throws IOException {
    List<NodeConfig> nodes = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      nodes.add(NodeConfig.local("node-" + i));
    }
    ChashConfig config =
        ChashConfig.builder()
            .source("chash.yaml")
            .ring(RingSettings.defaults())
            .nodes(nodes)
            .check(CheckConfig.defaults())
            .build();
    ReportWriter result =
        ReportWriter.analyze(
            new AnalysisInputs(config, 1.2, KeySource.pattern("k{n}", 10_000)), null);
    assertThat(result.arcs()).isEmpty();
    result.writeFiles(dir);
    String html = Files.readString(dir.resolve("report.html"));
    assertThat(html).contains("class=\"bars\"", "node-99").doesNotContain("class=\"ring\"");
    assertThat(html.split("class=\"bar ", -1)).hasSize(101);
  }

  @Test
  void siteFragment_explainsTheShareChartsMarks() {
    AnalysisInputs inputs =
        new AnalysisInputs(
            config(SEEDS, "10.20.12.{n}"), 1.2, KeySource.pattern("10.20.12.{n}", 20_000));
    String page = HtmlSiteFragment.of(ReportWriter.analyze(inputs, null));
    assertThat(page)
        .contains(
            "class=\"bars\"",
            "<span class=\"sw exact\"></span>exact share",
            "<span class=\"sw sampled\"></span>sampled share",
            "<span class=\"sw fair\"></span>fair share",
            "<span class=\"sw limit\"></span>limit");
    assertThat(page).contains(".chash-report .sw.fair{");
  }

  @Test
  void html_escapesNodeIds() {
    assertThat(HtmlReportWriter.esc("<a&\"b>")).isEqualTo("&lt;a&amp;&quot;b&gt;");
  }

  @Test
  void fromOverrides_siteReportGetsTheSameValidationAsTheGoals(@TempDir Path dir) {
    ChashConfig config = config(RingSettings.defaults(), "orders:{n}");
    File yaml = dir.resolve("chash.yaml").toFile();
    assertThatThrownBy(() -> AnalysisInputs.fromOverrides(config, yaml, "abc", null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("chash.maxSkew must be a number of at least 1.0; was \"abc\"");
    AnalysisInputs parsed = AnalysisInputs.fromOverrides(config, yaml, "1.1", "10", null, null);
    assertThat(parsed.limit()).isEqualTo(1.1);
    assertThat(parsed.keys().size()).isEqualTo(10);
  }

  @Test
  void inputs_commandLineOverridesTheCheckBlock(@TempDir Path dir) throws IOException {
    Path keys = dir.resolve("keys.txt");
    Files.writeString(keys, "x\ny\n");
    ChashConfig config = config(RingSettings.defaults(), "orders:{n}");
    File yaml = dir.resolve("chash.yaml").toFile();
    AnalysisInputs fromConfig = AnalysisInputs.of(config, yaml, null, null, null, null);
    assertThat(fromConfig.limit()).isEqualTo(1.3);
    assertThat(fromConfig.keys().description()).isEqualTo("orders:{n}");
    assertThat(fromConfig.keys().size()).isEqualTo(1234);
    AnalysisInputs overridden = AnalysisInputs.of(config, yaml, 1.1, 10, null, "p{n}");
    assertThat(overridden.limit()).isEqualTo(1.1);
    assertThat(overridden.keys().size()).isEqualTo(10);
    assertThat(overridden.keys().key(3, new StringBuilder()).toString()).isEqualTo("p3");
    AnalysisInputs file = AnalysisInputs.of(config, yaml, null, null, keys.toFile(), null);
    assertThat(file.keys().size()).isEqualTo(2);
  }

  @Test
  void inputs_configKeysFileIsRelativeToTheConfigFile(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("conf"));
    Files.writeString(dir.resolve("conf/real-keys.txt"), "u1\nu2\nu3\n");
    ChashConfig config =
        ChashConfig.builder()
            .source("chash.yaml")
            .ring(RingSettings.defaults())
            .nodes(List.of(NodeConfig.local("a")))
            .check(new CheckConfig(1.2, 10, "k{n}", "real-keys.txt", null, null, null))
            .build();
    AnalysisInputs inputs =
        AnalysisInputs.of(config, dir.resolve("conf/chash.yaml").toFile(), null, null, null, null);
    assertThat(inputs.keys().description()).isEqualTo("real-keys.txt");
    assertThat(inputs.keys().size()).isEqualTo(3);
    // a pattern given on the command line replaces the configured file
    assertThat(
            AnalysisInputs.of(
                    config, dir.resolve("conf/chash.yaml").toFile(), null, 5, null, "p{n}")
                .keys()
                .size())
        .isEqualTo(5);
  }

  @Test
  void locateAll_writesKeyTabNodeLines(@TempDir Path dir) throws IOException {
    Ring ring = Rings.create(RingSettings.defaults(), List.of(Node.of("a"), Node.of("b")));
    Path keys = dir.resolve("keys.txt");
    Files.writeString(keys, "k1\n\nk2\n");
    StringWriter out = new StringWriter();
    assertThat(LocateMojo.locateAll(ring, keys.toFile(), out)).isEqualTo(2);
    assertThat(out.toString())
        .isEqualTo("k1\t" + ring.locate("k1").id() + "\nk2\t" + ring.locate("k2").id() + "\n");
  }

  private static ChashConfig config(RingSettings ring, String pattern) {
    List<NodeConfig> nodes = SERVERS.stream().map(n -> NodeConfig.local(n.id())).toList();
    return ChashConfig.builder()
        .source("chash.yaml")
        .ring(ring)
        .nodes(nodes)
        .check(new CheckConfig(1.3, 1234, pattern, null, null, null, null))
        .build();
  }
}
