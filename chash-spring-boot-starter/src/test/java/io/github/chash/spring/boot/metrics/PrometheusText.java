package io.github.chash.spring.boot.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The samples of a Prometheus text scrape ({@code /actuator/prometheus}): per sample name (as
 * queries name it: {@code chash_node_calls_seconds_bucket}, {@code cache_gets_total}) its label
 * sets.
 */
final class PrometheusText {
  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+\\S+(?:\\s+\\S+)?");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  private final Map<String, List<Map<String, String>>> samples = new TreeMap<>();

  private PrometheusText() {}

  /** {@return the samples of {@code text}, a scrape in Prometheus' text format} */
  static PrometheusText parse(String text) {
    PrometheusText out = new PrometheusText();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher sample = SAMPLE.matcher(line.strip());
      if (!sample.matches()) {
        throw new AssertionError("not a sample line: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (sample.group(2) != null) {
        Matcher label = LABEL.matcher(sample.group(2));
        while (label.find()) {
          labels.put(label.group(1), label.group(2));
        }
      }
      out.samples.computeIfAbsent(sample.group(1), n -> new java.util.ArrayList<>()).add(labels);
    }
    return out;
  }

  /** {@return every sample name} */
  Set<String> names() {
    return samples.keySet();
  }

  /** {@return the label sets of the samples named {@code name}, none when there are none} */
  List<Map<String, String>> samples(String name) {
    return samples.getOrDefault(name, List.of());
  }

  /** {@return the label names any sample named {@code name} has} */
  Set<String> labelNames(String name) {
    Set<String> out = new TreeSet<>();
    for (Map<String, String> labels : samples(name)) {
      out.addAll(labels.keySet());
    }
    return out;
  }
}
