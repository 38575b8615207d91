package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.analysis.NodeStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonReportTest {

  @Test
  void write_hasTheDocumentedFields_andEveryNodeInNaturalOrder() {
    ReportData data = Reports.report(Reports.nodes(12, true), 1.2, 20_000, 3);
    String json = JsonReport.write(data);

    assertThat(json)
        .startsWith("{\n  \"config\": \"orders/src/main/resources/chash.yaml\",\n")
        .contains("\"algorithm\": \"ring\"", "\"hash\": \"xxh3\"", "\"pointsPerWeight\": 1000")
        .contains("\"sampleKeys\": 20000", "\"limit\": 1.2", "\"passed\": ")
        .contains("\"maxSkew\": " + data.report().maxSkew())
        .contains("\"worstNode\": \"" + data.report().worstNode().id() + "\"")
        .endsWith("\n}\n");
    List<NodeStats> nodes = data.byId();
    int at = 0;
    for (NodeStats n : nodes) {
      String line =
          "{\"id\": \""
              + n.id()
              + "\", \"weight\": "
              + n.weight()
              + ", \"fairShare\": "
              + n.fairShare()
              + ", \"exactShare\": "
              + n.exactShare()
              + ", \"sampledShare\": "
              + n.sampledShare();
      int next = json.indexOf(line);
      assertThat(next).as(n.id()).isGreaterThan(at);
      at = next;
    }
    assertThat(nodes.get(2).id()).isEqualTo("cache-2");
    assertThat(nodes.get(3).id()).isEqualTo("cache-3");
  }

  @Test
  void write_maglevHasNoPointsPerWeight_andViolationsCarryTheirRemedy() {
    ReportData maglev =
        Reports.report("ring: {algorithm: maglev}\n" + Reports.nodes(3, false), 1.2, 1000, 10);
    assertThat(JsonReport.write(maglev)).contains("\"pointsPerWeight\": null");
    ReportData seeds =
        Reports.report(
            "ring: {hash: jdk, pointsPerWeight: 3}\nnodes: [{id: a}, {id: b}, {id: c}]\n",
            1.2,
            10_000,
            10);
    assertThat(JsonReport.write(seeds))
        .contains("\"violations\": [\n    {\"rule\": \"")
        .contains("\"remedy\": \"fix: raise ring.pointsPerWeight from 3 to ");
  }

  @Test
  void write_baselineObject_withItsLimitsAndWhetherTheyAreDefaults() {
    ReportData data =
        Reports.withBaseline(Reports.nodes(10, false), Reports.nodes(11, false), 10_000);
    assertThat(JsonReport.write(data))
        .contains(
            "  \"baseline\": {\n    \"source\": \"git:main@1a2b3c4\",\n    \"movedFraction\": ")
        .contains("\"idealMoved\": 0.09090909090909091")
        .contains("\"maxMoved\": 0.3,\n    \"maxMovedDefault\": true,")
        .contains("\"maxMovedOverIdeal\": 2.0,\n    \"maxMovedOverIdealDefault\": true,")
        .contains("\"passed\": true,\n    \"violation\": null,")
        .contains("{\"kind\": \"added\", \"message\": \"node added: cache-10\"}")
        .contains("{\"id\": \"cache-10\", \"previousId\": null, \"before\": 0.0, \"after\": ");
  }

  @Test
  void document_escapesStringsAndWritesNaNAndInfinityAsNull() {
    String json =
        JsonReport.document(
            g -> {
              g.writeStringField("s", "a\"b\\c\nd\u0001\b\f\u001f/\u00f1\u20ac\ud83d\ude00");
              JsonReport.number(g, "nan", Double.NaN);
              JsonReport.number(g, "infinity", Double.POSITIVE_INFINITY);
              JsonReport.number(g, "small", 1e-4);
              g.writeArrayFieldStart("list");
              g.writeStartObject();
              g.writeNumberField("x", 1);
              g.writeBooleanField("y", true);
              g.writeEndObject();
              g.writeStartObject();
              g.writeNullField("z");
              g.writeEndObject();
              g.writeEndArray();
              g.writeArrayFieldStart("empty");
              g.writeEndArray();
              g.writeObjectFieldStart("object");
              g.writeStringField("a", "b");
              g.writeEndObject();
            });
    assertThat(json)
        .isEqualTo(
            "{\n  \"s\": \"a\\\"b\\\\c\\nd\\u0001\\u0008\\u000c\\u001f/\u00f1\u20ac\ud83d\ude00\",\n"
                + "  \"nan\": null,\n  \"infinity\": null,\n  \"small\": 1.0E-4,\n  \"list\": [\n"
                + "    {\"x\": 1, \"y\": true},\n    {\"z\": null}\n  ],\n  \"empty\": [],\n"
                + "  \"object\": {\n    \"a\": \"b\"\n  }\n}\n");
  }
}
