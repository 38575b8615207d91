package io.github.chash.maven;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import io.github.chash.analysis.BaselineReport;
import io.github.chash.analysis.ChangeCause;
import io.github.chash.analysis.ChangeReport;
import io.github.chash.analysis.DistributionReport;
import io.github.chash.analysis.Estimate;
import io.github.chash.analysis.Flow;
import io.github.chash.analysis.NodeMovement;
import io.github.chash.analysis.NodeStats;
import io.github.chash.analysis.Violation;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/**
 * Writes {@code report.json} with Jackson's streaming generator: every node (natural order of ids),
 * every violation with its remedy, the what-if change and the baseline comparison. Unmeasured
 * numbers (NaN) and unbounded ones (infinity) are {@code null}. Stateless.
 */
final class JsonReport {
  /** Flows of a baseline comparison written at most. */
  static final int MAX_FLOWS = 200;

  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonReport() {}

  /** The report as a JSON document, ending with a line break. */
  static String write(ReportData data) {
    return document(json -> report(json, data));
  }

  /** The members of a document's object. */
  interface Members {
    void write(JsonGenerator json) throws IOException;
  }

  /** A document of one object, in the layout and escaping of {@code report.json}. */
  static String document(Members members) {
    StringWriter out = new StringWriter(4096);
    try (JsonGenerator json = FACTORY.createGenerator(out)) {
      json.setPrettyPrinter(new Layout());
      json.setCharacterEscapes(Escapes.INSTANCE);
      json.writeStartObject();
      members.write(json);
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.append('\n').toString();
  }

  private static void report(JsonGenerator json, ReportData data) throws IOException {
    DistributionReport r = data.report();
    json.writeStringField("config", data.file().display());
    json.writeStringField("algorithm", r.settings().algorithm().configName());
    json.writeStringField("hash", r.settings().hash().name());
    if (Remedies.usesPoints(r.settings().algorithm())) {
      json.writeNumberField("pointsPerWeight", r.settings().pointsPerWeight());
    } else {
      json.writeNullField("pointsPerWeight");
    }
    NodeStats worst = r.worstNode();
    json.writeStringField("keySource", r.keySource());
    json.writeNumberField("sampleKeys", r.sampleKeys());
    number(json, "zThreshold", r.zThreshold());
    number(json, "maxSkew", r.maxSkew());
    json.writeStringField("worstNode", worst == null ? null : worst.id());
    number(json, "maxExactSkew", r.maxExactSkew());
    number(json, "maxSampledSkew", r.maxSampledSkew());
    number(json, "limit", r.limit());
    json.writeBooleanField("passed", r.passed());
    json.writeArrayFieldStart("nodes");
    for (NodeStats n : data.byId()) {
      json.writeStartObject();
      json.writeStringField("id", n.id());
      json.writeNumberField("weight", n.weight());
      number(json, "fairShare", n.fairShare());
      number(json, "exactShare", n.exactShare());
      number(json, "sampledShare", n.sampledShare());
      json.writeNumberField("sampledKeys", n.sampledKeys());
      number(json, "exactSkew", n.exactSkew());
      number(json, "sampledSkew", n.sampledSkew());
      number(json, "skew", n.skew());
      number(json, "sampledZ", n.sampledZ());
      number(json, "movedIfRemoved", n.movedIfRemoved());
      json.writeStringField("movedIfRemovedEstimate", lower(n.movedIfRemovedEstimate()));
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("violations");
    for (Violation v : r.violations()) {
      json.writeStartObject();
      json.writeStringField("rule", v.rule());
      json.writeStringField("node", v.subject());
      number(json, "measured", v.measured());
      number(json, "limit", v.limit());
      json.writeStringField("message", v.message());
      json.writeStringField("remedy", data.remedy(v));
      json.writeEndObject();
    }
    json.writeEndArray();
    if (data.change() != null) {
      whatIf(json, data.change());
    }
    if (data.baseline() != null) {
      baseline(json, data.baseline());
    }
  }

  private static void whatIf(JsonGenerator json, ChangeReport change) throws IOException {
    json.writeObjectFieldStart("whatIf");
    json.writeStringField("change", change.change().describe());
    number(json, "movedFraction", change.movedFraction());
    number(json, "idealFraction", change.idealFraction());
    json.writeStringField("estimate", lower(change.estimate()));
    json.writeNumberField("sampleKeys", change.sampleKeys());
    flows(json, change.flows(), Integer.MAX_VALUE);
    json.writeEndObject();
  }

  private static void baseline(JsonGenerator json, BaselineResult result) throws IOException {
    BaselineReport report = result.report();
    String violation = result.violation();
    json.writeObjectFieldStart("baseline");
    json.writeStringField("source", report.baseline());
    number(json, "movedFraction", report.movedFraction());
    number(json, "idealMoved", report.idealMoved());
    // infinite (no membership change, keys move) is written as null, see BaselineReport
    number(json, "movedOverIdeal", report.movedOverIdeal());
    number(json, "randomMoved", report.randomMoved());
    json.writeBooleanField("exact", report.estimate() == Estimate.EXACT);
    json.writeNumberField("sampleKeys", report.sampleKeys());
    json.writeStringField("method", report.method());
    number(json, "maxMoved", result.maxMoved());
    json.writeBooleanField("maxMovedDefault", result.maxMovedDefaulted());
    number(json, "maxMovedOverIdeal", result.maxMovedOverIdeal());
    json.writeBooleanField("maxMovedOverIdealDefault", result.maxMovedOverIdealDefaulted());
    json.writeBooleanField("passed", violation == null);
    json.writeStringField("violation", violation);
    json.writeStringField("cause", report.causeText());
    json.writeArrayFieldStart("causes");
    for (ChangeCause c : report.causes()) {
      json.writeStartObject();
      json.writeStringField("kind", c.kind().jsonName());
      json.writeStringField("message", c.message());
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("nodes");
    for (NodeMovement n : ConsoleReport.movers(report, Integer.MAX_VALUE)) {
      json.writeStartObject();
      json.writeStringField("id", n.id());
      json.writeStringField("previousId", n.previousId());
      number(json, "before", n.before());
      number(json, "after", n.after());
      number(json, "gained", n.gained());
      number(json, "lost", n.lost());
      json.writeEndObject();
    }
    json.writeEndArray();
    flows(json, report.flows(), MAX_FLOWS);
    json.writeEndObject();
  }

  private static void flows(JsonGenerator json, List<Flow> flows, int max) throws IOException {
    json.writeArrayFieldStart("flows");
    for (Flow f : flows.subList(0, Math.min(max, flows.size()))) {
      json.writeStartObject();
      json.writeStringField("from", f.from());
      json.writeStringField("to", f.to());
      number(json, "fraction", f.fraction());
      json.writeEndObject();
    }
    json.writeEndArray();
  }

  /** A number member; NaN (not measured) and infinities (unbounded) are written as null. */
  static void number(JsonGenerator json, String name, double value) throws IOException {
    if (Double.isFinite(value)) {
      json.writeNumberField(name, value);
    } else {
      json.writeNullField(name);
    }
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  /**
   * The layout {@code report.json} has always had: two spaces a level, {@code "name": value}, one
   * member or array element a line, {@code []} for an empty array, and each object inside an array
   * (a node, a violation, a flow) on one line, {@code {"id": "a", "weight": 1}}, so that a ring of
   * 10,000 nodes is 10,000 lines.
   */
  static final class Layout extends DefaultPrettyPrinter {
    private static final long serialVersionUID = 1L;
    private static final DefaultIndenter LINES = new DefaultIndenter("  ", "\n");

    Layout() {
      super(
          Separators.createDefaultInstance()
              .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
              .withArrayEmptySeparator(""));
      indentObjectsWith(LINES);
      indentArraysWith(LINES);
    }

    @Override
    public Layout createInstance() {
      return new Layout();
    }

    @Override
    public void writeStartObject(JsonGenerator g) throws IOException {
      if (inline(g)) {
        g.writeRaw('{');
      } else {
        super.writeStartObject(g);
      }
    }

    @Override
    public void beforeObjectEntries(JsonGenerator g) throws IOException {
      if (!inline(g)) {
        super.beforeObjectEntries(g);
      }
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
      if (inline(g)) {
        g.writeRaw(", ");
      } else {
        super.writeObjectEntrySeparator(g);
      }
    }

    @Override
    public void writeEndObject(JsonGenerator g, int entries) throws IOException {
      if (inline(g)) {
        g.writeRaw('}');
      } else {
        super.writeEndObject(g, entries);
      }
    }

    /** Whether the object being written is an element of an array. */
    private static boolean inline(JsonGenerator g) {
      return g.getOutputContext().getParent().inArray();
    }
  }

  /**
   * Jackson's escaping (quote, backslash, control characters; nothing else), with every control
   * character but line feed, carriage return and tab as &#92;u00xx in lower case, as {@code
   * report.json} has always written them (Jackson's own writes {@code \b}, {@code \f} and upper
   * case).
   */
  static final class Escapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    static final Escapes INSTANCE = new Escapes();
    private final int[] ascii = standardAsciiEscapesForJSON();

    private Escapes() {
      for (int c = 0; c < 0x20; c++) {
        if (c != '\n' && c != '\r' && c != '\t') {
          ascii[c] = ESCAPE_CUSTOM;
        }
      }
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int c) {
      return c < 0x20 ? new SerializedString(String.format(Locale.ROOT, "\\u%04x", c)) : null;
    }
  }
}
