package io.github.chash.maven;

import io.github.chash.analysis.BaselineReport;
import io.github.chash.analysis.ChangeCause;
import io.github.chash.analysis.ChangeReport;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.Estimate;
import io.github.chash.analysis.Flow;
import io.github.chash.analysis.NodeMovement;
import io.github.chash.analysis.NodeStats;
import io.github.chash.analysis.Violation;
import java.util.Locale;

/**
 * Writes {@code report.json}: every node (natural order of ids), every violation with its remedy,
 * the what-if change and the baseline comparison. Unmeasured numbers (NaN) are {@code null}.
 * Stateless.
 */
final class JsonReport {
  /** Flows of a baseline comparison written at most. */
  static final int MAX_FLOWS = 200;

  private JsonReport() {}

  /** The report as a JSON document. */
  static String write(ReportData data) {
    DistributionReport r = data.report();
    Json json = Json.document();
    json.string("config", data.file().display())
        .string("algorithm", r.settings().algorithm().configName())
        .string("hash", r.settings().hash().name());
    if (Remedies.usesPoints(r.settings().algorithm())) {
      json.integer("pointsPerWeight", r.settings().pointsPerWeight());
    } else {
      json.string("pointsPerWeight", null);
    }
    NodeStats worst = r.worstNode();
    json.string("keySource", r.keySource())
        .integer("sampleKeys", r.sampleKeys())
        .number("zThreshold", r.zThreshold())
        .number("maxSkew", r.maxSkew())
        .string("worstNode", worst == null ? null : worst.id())
        .number("maxExactSkew", r.maxExactSkew())
        .number("maxSampledSkew", r.maxSampledSkew())
        .number("limit", r.limit())
        .bool("passed", r.passed());
    json.beginArray("nodes");
    for (NodeStats n : data.byId()) {
      json.beginInlineObject(null)
          .string("id", n.id())
          .integer("weight", n.weight())
          .number("fairShare", n.fairShare())
          .number("exactShare", n.exactShare())
          .number("sampledShare", n.sampledShare())
          .integer("sampledKeys", n.sampledKeys())
          .number("exactSkew", n.exactSkew())
          .number("sampledSkew", n.sampledSkew())
          .number("skew", n.skew())
          .number("sampledZ", n.sampledZ())
          .number("movedIfRemoved", n.movedIfRemoved())
          .string("movedIfRemovedEstimate", lower(n.movedIfRemovedEstimate()))
          .endObject();
    }
    json.endArray();
    json.beginArray("violations");
    for (Violation v : r.violations()) {
      json.beginInlineObject(null)
          .string("rule", v.rule())
          .string("node", v.subject())
          .number("measured", v.measured())
          .number("limit", v.limit())
          .string("message", v.message())
          .string("remedy", data.remedy(v))
          .endObject();
    }
    json.endArray();
    if (data.change() != null) {
      whatIf(json, data.change());
    }
    if (data.baseline() != null) {
      baseline(json, data.baseline());
    }
    return json.finish();
  }

  private static void whatIf(Json json, ChangeReport change) {
    json.beginObject("whatIf")
        .string("change", change.change().describe())
        .number("movedFraction", change.movedFraction())
        .number("idealFraction", change.idealFraction())
        .string("estimate", lower(change.estimate()))
        .integer("sampleKeys", change.sampleKeys());
    flows(json, change.flows(), Integer.MAX_VALUE);
    json.endObject();
  }

  private static void baseline(Json json, BaselineResult result) {
    BaselineReport report = result.report();
    String violation = result.violation();
    json.beginObject("baseline")
        .string("source", report.baseline())
        .number("movedFraction", report.movedFraction())
        .number("idealMoved", report.idealMoved())
        // infinite (no membership change, keys move) is written as null, see BaselineReport
        .number("movedOverIdeal", report.movedOverIdeal())
        .number("randomMoved", report.randomMoved())
        .bool("exact", report.estimate() == Estimate.EXACT)
        .integer("sampleKeys", report.sampleKeys())
        .string("method", report.method())
        .number("maxMoved", result.maxMoved())
        .bool("maxMovedDefault", result.maxMovedDefaulted())
        .number("maxMovedOverIdeal", result.maxMovedOverIdeal())
        .bool("maxMovedOverIdealDefault", result.maxMovedOverIdealDefaulted())
        .bool("passed", violation == null)
        .string("violation", violation)
        .string("cause", report.causeText());
    json.beginArray("causes");
    for (ChangeCause c : report.causes()) {
      json.beginInlineObject(null)
          .string("kind", c.kind().jsonName())
          .string("message", c.message())
          .endObject();
    }
    json.endArray();
    json.beginArray("nodes");
    for (NodeMovement n : ConsoleReport.movers(report, Integer.MAX_VALUE)) {
      json.beginInlineObject(null)
          .string("id", n.id())
          .string("previousId", n.previousId())
          .number("before", n.before())
          .number("after", n.after())
          .number("gained", n.gained())
          .number("lost", n.lost())
          .endObject();
    }
    json.endArray();
    flows(json, report.flows(), MAX_FLOWS);
    json.endObject();
  }

  private static void flows(Json json, java.util.List<Flow> flows, int max) {
    json.beginArray("flows");
    flows.stream()
        .limit(max)
        .forEach(
            f ->
                json.beginInlineObject(null)
                    .string("from", f.from())
                    .string("to", f.to())
                    .number("fraction", f.fraction())
                    .endObject());
    json.endArray();
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
