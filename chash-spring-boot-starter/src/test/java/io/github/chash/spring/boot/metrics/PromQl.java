package io.github.chash.spring.boot.metrics;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names and label names a PromQL query (as a Grafana dashboard writes it, with {@code
 * $variables}) uses: enough of the grammar to tell a metric from a function, a keyword, a number, a
 * label matcher, a range and a grouping clause.
 */
final class PromQl {
  private static final Set<String> KEYWORDS =
      Set.of(
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "bool",
          "and",
          "or",
          "unless",
          "offset",
          "inf",
          "nan");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{?[A-Za-z_][A-Za-z0-9_]*\\}?");
  private static final Pattern RANGE = Pattern.compile("\\[[^\\]]*\\]");
  private static final Pattern GROUPING =
      Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");
  private static final Pattern SELECTOR =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{([^}]*)\\}");
  private static final Pattern MATCHER =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)\\s*\"(?:[^\"\\\\]|\\\\.)*\"");
  private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
  private static final Pattern NUMBER = Pattern.compile("\\b\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?\\b");
  private static final Pattern IDENTIFIER = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

  /**
   * A query's metrics with the label names its matchers name, and the labels it groups by.
   *
   * @param metrics per metric name, the label names of its matchers
   * @param groupedBy the labels of its {@code by}, {@code on}, ... clauses
   */
  record Query(Map<String, Set<String>> metrics, Set<String> groupedBy) {}

  private PromQl() {}

  static Query parse(String query) {
    String e = VARIABLE.matcher(query).replaceAll("x");
    e = RANGE.matcher(e).replaceAll(" ");
    Set<String> groupedBy = new TreeSet<>();
    Matcher grouping = GROUPING.matcher(e);
    while (grouping.find()) {
      for (String label : grouping.group(2).split(",")) {
        if (!label.isBlank()) {
          groupedBy.add(label.strip());
        }
      }
    }
    e = GROUPING.matcher(e).replaceAll(" ");
    Map<String, Set<String>> metrics = new TreeMap<>();
    Matcher selector = SELECTOR.matcher(e);
    while (selector.find()) {
      Set<String> labels = metrics.computeIfAbsent(selector.group(1), m -> new TreeSet<>());
      String matchers = selector.group(2);
      Matcher m = MATCHER.matcher(matchers);
      int end = 0;
      while (m.find()) {
        if (!matchers.substring(end, m.start()).matches("[\\s,]*")) {
          throw new IllegalArgumentException("unreadable matchers {" + matchers + "} in " + query);
        }
        labels.add(m.group(1));
        end = m.end();
      }
      if (!matchers.substring(end).matches("[\\s,]*")) {
        throw new IllegalArgumentException("unreadable matchers {" + matchers + "} in " + query);
      }
    }
    e = SELECTOR.matcher(e).replaceAll(" $1 ");
    e = STRING.matcher(e).replaceAll(" ");
    e = NUMBER.matcher(e).replaceAll(" ");
    Matcher identifier = IDENTIFIER.matcher(e);
    while (identifier.find()) {
      String name = identifier.group(1);
      if (identifier.group(2) == null && !KEYWORDS.contains(name)) {
        metrics.computeIfAbsent(name, m -> new TreeSet<>());
      }
    }
    return new Query(metrics, groupedBy);
  }
}
