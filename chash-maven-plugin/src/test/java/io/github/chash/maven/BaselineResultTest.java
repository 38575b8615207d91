package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.analysis.BaselineComparison;
import io.github.chash.analysis.BaselineReport;
import io.github.chash.analysis.KeySource;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import java.util.List;
import org.junit.jupiter.api.Test;

class BaselineResultTest {

  private static ChashConfig config(String hash, String... ids) {
    StringBuilder yaml = new StringBuilder("ring:\n  hash: " + hash + "\nnodes:\n");
    for (String id : ids) {
      yaml.append("  - id: ").append(id).append("\n    type: local\n");
    }
    return ChashConfigs.parse(yaml.toString(), "chash.yaml");
  }

  private static BaselineReport compare(ChashConfig before, ChashConfig after) {
    return BaselineComparison.compare(before, "old.yaml", after, KeySource.pattern("k{n}", 50_000));
  }

  @Test
  void json_carriesTheBaselineObject() {
    BaselineResult r =
        new BaselineResult(
            compare(config("xxh3", "a", "b"), config("xxh3", "a", "b", "c")), 0.5, 1.5);
    String json = r.json();
    assertThat(json)
        .startsWith("{\n    \"source\": \"old.yaml\",\n    \"movedFraction\": ")
        .contains("\"idealMoved\": 0.3333333333333333,")
        .contains("\"exact\": true,")
        .contains("\"maxMoved\": 0.5,")
        .contains("\"passed\": true,")
        .contains("\"violation\": null,")
        .contains("{\"kind\": \"added\", \"message\": \"node added: c\"}")
        .contains("{\"id\": \"c\", \"previousId\": null, \"before\": 0.0, \"after\": ")
        .endsWith("  }");
  }

  @Test
  void json_infiniteRatioIsNullAndTheViolationIsWritten() {
    BaselineResult r =
        new BaselineResult(
            compare(config("xxh3", "a", "b"), config("murmur3", "a", "b")), null, 2.0);
    assertThat(r.json())
        .contains("\"movedOverIdeal\": null,")
        .contains("\"exact\": false,")
        .contains("\"sampleKeys\": 50000,")
        .contains("\"passed\": false,")
        .contains("\"violation\": \"key movement against baseline old.yaml: ")
        .contains("{\"kind\": \"hash\", \"message\": \"hash changed from xxh3 to murmur3\"}");
  }

  @Test
  void consoleLines_summaryMethodLimitsAndNodeTable() {
    BaselineResult r =
        new BaselineResult(
            compare(config("xxh3", "a", "b"), config("xxh3", "a", "b", "c")), 0.5, null);
    List<String> lines = r.consoleLines();
    assertThat(lines.get(0))
        .startsWith("key movement against baseline old.yaml: ")
        .endsWith("; cause: node added: c");
    assertThat(lines.get(1))
        .isEqualTo("  (exact: merged both rings' maps of top32(xxh3) positions)");
    assertThat(lines.get(2)).isEqualTo("  limits maxMoved 50.0%: passed");
    assertThat(lines.get(3)).matches("  node\\s+was\\s+before\\s+after\\s+gained\\s+lost");
    assertThat(lines).hasSize(7);
    assertThat(lines.get(6)).startsWith("  c ").contains("0.00%");
  }

  @Test
  void html_escapesAndShowsTheViolation() {
    BaselineResult r =
        new BaselineResult(
            compare(config("xxh3", "a<b", "b"), config("xxh3", "a<b", "b", "c")), 0.01, null);
    String html = r.html();
    assertThat(html).contains("<h2>Against baseline old.yaml</h2>");
    assertThat(html).contains("<td>a&lt;b</td>").doesNotContain("a<b");
    assertThat(html)
        .contains("<p class=\"status fail\">")
        .contains("<ul class=\"violations\"><li>key movement");
  }

  @Test
  void writers_addTheBaselineToReportJsonAndHtml() {
    ChashConfig now = config("xxh3", "a", "b", "c");
    BaselineResult r = new BaselineResult(compare(config("xxh3", "a", "b"), now), null, null);
    var report =
        io.github.chash.analysis.DistributionAnalysis.analyze(
            io.github.chash.ring.Rings.create(now.ring(), now.ringNodes()),
            KeySource.pattern("k{n}", 10_000),
            1.2);
    assertThat(JsonReportWriter.write(report, null, r))
        .contains(",\n  \"baseline\": {\n    \"source\": \"old.yaml\"")
        .endsWith("  }\n}\n");
    assertThat(JsonReportWriter.write(report, null)).doesNotContain("\"baseline\"");
    assertThat(HtmlReportWriter.write(report, List.of(), null, r))
        .contains("<h2>Against baseline old.yaml</h2>");
  }
}
