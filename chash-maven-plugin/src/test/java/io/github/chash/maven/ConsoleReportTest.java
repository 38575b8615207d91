package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.analysis.NodeStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleReportTest {

  @Test
  void lines_smallRing_allNodesInNaturalOrder_summaryNamesTheFile() {
    ReportData data = Reports.report(Reports.nodes(12, false), 1.5, 20_000, 20);
    List<String> lines = ConsoleReport.lines(data);

    assertThat(lines.get(0))
        .isEqualTo(
            "chash key distribution of orders/src/main/resources/chash.yaml: 12 nodes, algorithm"
                + " ring, hash xxh3, pointsPerWeight 1000, 20,000 sample keys (users:{n})");
    assertThat(lines.get(1)).startsWith("node").contains("moved if removed");
    List<String> ids = lines.subList(2, 14).stream().map(l -> l.split(" ")[0]).toList();
    assertThat(ids)
        .containsExactly(
            "cache-0",
            "cache-1",
            "cache-2",
            "cache-3",
            "cache-4",
            "cache-5",
            "cache-6",
            "cache-7",
            "cache-8",
            "cache-9",
            "cache-10",
            "cache-11");
    NodeStats worst = data.report().worstNode();
    assertThat(lines.get(14))
        .startsWith(
            "max skew "
                + Text.skew(data.report().decisiveSkew(worst))
                + " on "
                + worst.id()
                + ", limit 1.50: passed");
  }

  @Test
  void lines_largeRing_theWorstTopNodesFirst_withSharesOfThreeSignificantDigits() {
    ReportData data = Reports.report(Reports.nodes(1000, true), 1.25, 100_000, 10);
    List<String> lines = ConsoleReport.distribution(data);

    assertThat(lines.get(1))
        .isEqualTo(
            "the 10 nodes of largest skew (exact, or sampled beyond sampling noise), of 1,000 (all"
                + " in report.json and report.html; -Dchash.top=N lists more):");
    List<NodeStats> worst = data.worst(10);
    for (int i = 0; i < 10; i++) {
      assertThat(lines.get(3 + i)).startsWith(worst.get(i).id() + " ");
    }
    assertThat(worst)
        .extracting(data.report()::decisiveSkew)
        .isSortedAccordingTo((a, b) -> Double.compare(b, a));
    // 100 keys a node: the sampled skews above the exact ones are noise, and the verdict says so
    assertThat(lines.get(13)).contains("are within sampling noise)");
    // 1000 nodes of weights 1-3: the lightest fair share is 0.0500%, shown with 3 digits
    assertThat(lines.get(3)).containsPattern(" 0\\.0[0-9]{3}% ");
    assertThat(lines).hasSize(14);
    assertThat(lines.get(13))
        .startsWith(
            "max skew "
                + Text.skew(data.report().decisiveSkew(worst.get(0)))
                + " on "
                + worst.get(0).id()
                + ", limit 1.25: passed");
  }

  @Test
  void settings_maglevShowsNoPointsPerWeight() {
    ReportData data =
        Reports.report("ring: {algorithm: maglev}\n" + Reports.nodes(3, false), 1.2, 1000, 10);
    assertThat(ConsoleReport.settings(data.report()))
        .isEqualTo("3 nodes, algorithm maglev, hash xxh3, 1,000 sample keys (users:{n})");
  }

  @Test
  void checkFailed_oneLinePerNodeWithItsRemedy_underAHeaderNamingTheFile() {
    // the seeds' ring: 3 points a node and String.hashCode
    ReportData data =
        Reports.report(
            "ring: {hash: jdk, pointsPerWeight: 3}\n"
                + "nodes: [{id: \"192.168.0.0:111\"}, {id: \"192.168.0.1:111\"}, {id: \"192.168.0.2:111\"}]\n",
            1.2,
            10_000,
            10);
    String message = ConsoleReport.checkFailed(data);
    List<String> lines = message.lines().toList();

    int violations = data.report().violations().size();
    assertThat(lines.get(0))
        .isEqualTo(
            "chash check failed for orders/src/main/resources/chash.yaml: "
                + Text.count(violations, "node")
                + " over maxSkew 1.20:");
    assertThat(lines).hasSize(1 + violations);
    assertThat(lines.subList(1, lines.size()))
        .allSatisfy(
            l ->
                assertThat(l)
                    .startsWith("  node 192.168.0.")
                    .contains("exact share ", "sampled share ", "> limit 1.20; fix: "));
    assertThat(message).contains("raise ring.pointsPerWeight from 3 to ");
    assertThat(lines.stream().map(l -> l.split(":")[0]).distinct()).hasSize(lines.size());
  }

  @Test
  void checkPassed_namesTheFileAndTheWorstNode() {
    ReportData data = Reports.report(Reports.nodes(4, false), 1.2, 50_000, 10);
    assertThat(ConsoleReport.checkPassed(data))
        .startsWith(
            "chash check passed for orders/src/main/resources/chash.yaml: max skew "
                + Text.skew(data.report().decisiveSkew(data.report().worstNode()))
                + " on "
                + data.report().worstNode().id()
                + " (largest exact ")
        .contains("over 50,000 keys), limit 1.20");
  }

  @Test
  void baseline_weightTypoFailsTheDefaultLimit_withTheRemedies() {
    String before =
        "nodes: [{id: a, weight: 2}, {id: b, weight: 2}, {id: c, weight: 2}, {id: d, weight: 2}]\n";
    String typo =
        "nodes: [{id: a, weight: 2}, {id: b, weight: 2}, {id: c, weight: 20}, {id: d, weight: 2}]\n";
    ReportData data = Reports.withBaseline(before, typo, 10_000);
    BaselineResult result = data.baseline();

    assertThat(result.passed()).isFalse();
    assertThat(ConsoleReport.baselineSummary(result))
        .startsWith(
            "chash key movement of orders/src/main/resources/chash.yaml against baseline"
                + " git:main@1a2b3c4: ")
        .endsWith("; cause: node c re-weighted from 2 to 20");
    assertThat(result.violation())
        .contains("limit 30.0%")
        .contains("fix: check the new weight (a typo such as 20 for 2 moves half the keys)")
        .contains("raise check.maxMoved to 0.5")
        .contains("in orders/src/main/resources/chash.yaml (-Dchash.maxMoved=0.5")
        .contains("merge it (the default branch then compares with itself)");
    assertThat(ConsoleReport.checkFailed(data))
        .startsWith(
            "chash check failed for orders/src/main/resources/chash.yaml: key movement over its"
                + " limits:\n  key movement against baseline git:main@1a2b3c4: ");
    List<String> lines = ConsoleReport.baseline(result, 2, 10);
    assertThat(lines.get(2))
        .isEqualTo("  limits maxMoved 30.0% (default), maxMovedOverIdeal 2.00 (default): exceeded");
  }

  @Test
  void baseline_unchangedConfig_passesAndMovesNothing() {
    String yaml = Reports.nodes(5, true);
    ReportData data = Reports.withBaseline(yaml, yaml, 10_000);
    assertThat(data.baseline().passed()).isTrue();
    assertThat(ConsoleReport.baselineSummary(data.baseline()))
        .contains(": 0.00% of keys move (exact), ideal 0.00%, 1.00x the ideal; no change");
  }

  @Test
  void baselineTable_hasAWasColumnOnlyWhenANodeWasRenamed() {
    // a join: no node has another id in the baseline, so no empty "was" column
    List<String> join =
        ConsoleReport.baseline(
            Reports.withBaseline(Reports.nodes(3, false), Reports.nodes(4, false), 10_000)
                .baseline(),
            2,
            10);
    assertThat(join.get(3)).isEqualTo("  node     before   after  gained   lost");
    assertThat(join.subList(4, join.size()))
        .allSatisfy(row -> assertThat(row).startsWith("  cache-").contains("%"));

    // a rename (same maximumSize, in file order): "was" names the node's id in the baseline
    String before =
        "nodes:\n  - { id: a, maximumSize: 10 }\n  - { id: b, maximumSize: 20 }\n"
            + "  - { id: c, maximumSize: 30 }\n";
    List<String> rename =
        ConsoleReport.baseline(
            Reports.withBaseline(before, before.replace("id: b,", "id: b2,"), 10_000).baseline(),
            2,
            10);
    assertThat(rename).anySatisfy(row -> assertThat(row).startsWith("  node  was  before"));
    assertThat(rename).anySatisfy(row -> assertThat(row).startsWith("  b2    b  "));
  }
}
