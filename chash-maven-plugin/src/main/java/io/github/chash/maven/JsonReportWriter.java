package io.github.chash.maven;

import io.github.chash.analysis.ChangeReport;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.Flow;
import io.github.chash.analysis.NodeStats;
import io.github.chash.analysis.Violation;
import java.util.List;
import java.util.Locale;

/**
 * Writes {@code report.json}. Hand-written: the shape is small and fixed, and the plugin stays free
 * of a JSON library. Unmeasured numbers (NaN) are written as {@code null}. Stateless.
 */
final class JsonReportWriter {
  private JsonReportWriter() {}

  /** The report as a JSON document; {@code change} may be null. */
  static String write(DistributionReport r, ChangeReport change) {
    return write(r, change, null);
  }

  /** The report as a JSON document; {@code change} and {@code baseline} may be null. */
  static String write(DistributionReport r, ChangeReport change, BaselineResult baseline) {
    StringBuilder b = new StringBuilder(4096 + r.nodes().size() * 256);
    b.append("{\n");
    field(b, 1, "algorithm", str(r.settings().algorithm().configName()));
    field(b, 1, "hash", str(r.settings().hash().name()));
    field(b, 1, "pointsPerWeight", Integer.toString(r.settings().pointsPerWeight()));
    field(b, 1, "keySource", str(r.keySource()));
    field(b, 1, "sampleKeys", Integer.toString(r.sampleKeys()));
    field(b, 1, "zThreshold", num(r.zThreshold()));
    field(b, 1, "maxSkew", num(r.maxSkew()));
    field(b, 1, "maxExactSkew", num(r.maxExactSkew()));
    field(b, 1, "maxSampledSkew", num(r.maxSampledSkew()));
    field(b, 1, "limit", num(r.limit()));
    field(b, 1, "passed", Boolean.toString(r.passed()));
    b.append("  \"nodes\": [");
    List<NodeStats> nodes = r.nodes();
    for (int i = 0; i < nodes.size(); i++) {
      NodeStats n = nodes.get(i);
      b.append(i == 0 ? "\n" : ",\n").append("    {");
      b.append("\"id\": ").append(str(n.id()));
      b.append(", \"weight\": ").append(n.weight());
      b.append(", \"fairShare\": ").append(num(n.fairShare()));
      b.append(", \"exactShare\": ").append(num(n.exactShare()));
      b.append(", \"sampledShare\": ").append(num(n.sampledShare()));
      b.append(", \"sampledKeys\": ").append(n.sampledKeys());
      b.append(", \"exactSkew\": ").append(num(n.exactSkew()));
      b.append(", \"sampledSkew\": ").append(num(n.sampledSkew()));
      b.append(", \"skew\": ").append(num(n.skew()));
      b.append(", \"sampledZ\": ").append(num(n.sampledZ()));
      b.append(", \"movedIfRemoved\": ").append(num(n.movedIfRemoved()));
      b.append(", \"movedIfRemovedEstimate\": ")
          .append(str(n.movedIfRemovedEstimate().name().toLowerCase(Locale.ROOT)));
      b.append('}');
    }
    b.append(nodes.isEmpty() ? "],\n" : "\n  ],\n");
    b.append("  \"violations\": [");
    List<Violation> vs = r.violations();
    for (int i = 0; i < vs.size(); i++) {
      Violation v = vs.get(i);
      b.append(i == 0 ? "\n" : ",\n").append("    {");
      b.append("\"rule\": ").append(str(v.rule()));
      b.append(", \"node\": ").append(v.subject() == null ? "null" : str(v.subject()));
      b.append(", \"measured\": ").append(num(v.measured()));
      b.append(", \"limit\": ").append(num(v.limit()));
      b.append(", \"message\": ").append(str(v.message()));
      b.append('}');
    }
    b.append(vs.isEmpty() ? "]" : "\n  ]");
    if (change != null) {
      b.append(",\n  \"whatIf\": {\n");
      field(b, 2, "change", str(change.change().describe()));
      field(b, 2, "movedFraction", num(change.movedFraction()));
      field(b, 2, "idealFraction", num(change.idealFraction()));
      field(b, 2, "estimate", str(change.estimate().name().toLowerCase(Locale.ROOT)));
      field(b, 2, "sampleKeys", Integer.toString(change.sampleKeys()));
      b.append("    \"flows\": [");
      List<Flow> flows = change.flows();
      for (int i = 0; i < flows.size(); i++) {
        Flow f = flows.get(i);
        b.append(i == 0 ? "\n" : ",\n")
            .append("      {\"from\": ")
            .append(str(f.from()))
            .append(", \"to\": ")
            .append(str(f.to()))
            .append(", \"fraction\": ")
            .append(num(f.fraction()))
            .append('}');
      }
      b.append(flows.isEmpty() ? "]\n" : "\n    ]\n").append("  }");
    }
    if (baseline != null) {
      b.append(",\n  \"baseline\": ").append(baseline.json());
    }
    b.append("\n}\n");
    return b.toString();
  }

  private static void field(StringBuilder b, int depth, String name, String value) {
    b.append("  ".repeat(depth)).append(str(name)).append(": ").append(value).append(",\n");
  }

  static String num(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return "null";
    }
    return Double.toString(d);
  }

  static String str(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
