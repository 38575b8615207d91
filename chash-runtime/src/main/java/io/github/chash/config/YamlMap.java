package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;

/**
 * One YAML mapping of the file, with its path ({@code nodes[1]}) for messages. Reports duplicate
 * keys, keys that are not names and unknown keys as it is read.
 */
final class YamlMap {
  private final String path;
  private final MappingNode node;
  private final Problems problems;
  private final Map<String, NodeTuple> entries = new LinkedHashMap<>();

  private YamlMap(String path, MappingNode node, Problems problems) {
    this.path = path;
    this.node = node;
    this.problems = problems;
    for (NodeTuple tuple : node.getValue()) {
      Node key = tuple.getKeyNode();
      String name = Scalars.text(key);
      if (!(key instanceof ScalarNode) || name == null) {
        problems.at(key, "keys must be names, was " + Scalars.describe(key) + " in " + where());
        continue;
      }
      NodeTuple first = entries.putIfAbsent(name, tuple);
      if (first != null) {
        problems.at(
            key,
            "duplicate key "
                + Quotes.quote(name)
                + " in "
                + where()
                + "; first at line "
                + (first.getKeyNode().getStartMark().map(m -> m.getLine() + 1).orElse(0)));
      }
    }
  }

  /** The root mapping, or a problem when the document is something else. */
  static Optional<YamlMap> root(Node node, Problems problems) {
    if (node instanceof MappingNode) {
      return Optional.of(new YamlMap("", (MappingNode) node, problems));
    }
    problems.at(
        node,
        "the top level must be a mapping with at least `nodes`, was " + Scalars.describe(node));
    return Optional.empty();
  }

  /**
   * The value at {@code path} as a mapping; empty for a null value (meaning "all defaults") and,
   * with a problem, for anything else.
   */
  static Optional<YamlMap> of(Node node, String path, Problems problems) {
    if (node instanceof MappingNode) {
      return Optional.of(new YamlMap(path, (MappingNode) node, problems));
    }
    if (!Scalars.isNull(node)) {
      problems.at(node, path + " must be a mapping, was " + Scalars.describe(node));
    }
    return Optional.empty();
  }

  /** Reports every key not in {@code valid}, listing the valid ones and the likely intended one. */
  YamlMap allowOnly(List<String> valid) {
    for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
      if (!valid.contains(e.getKey())) {
        String message =
            "unknown key "
                + Quotes.quote(e.getKey())
                + " "
                + (path.isEmpty() ? "at" : "in")
                + " "
                + where()
                + "; valid keys: "
                + String.join(", ", valid);
        String guess = closest(e.getKey(), valid);
        if (guess != null) {
          message += "; did you mean \"" + guess + "\"?";
        }
        problems.at(e.getValue().getKeyNode(), message);
      }
    }
    return this;
  }

  /** The value of {@code key}, if the key is present (its value may be null). */
  Optional<Node> get(String key) {
    NodeTuple tuple = entries.get(key);
    return tuple == null ? Optional.empty() : Optional.of(tuple.getValueNode());
  }

  /** The value of {@code key}, or a problem at this mapping when it is missing. */
  Optional<Node> require(String key, String why) {
    Optional<Node> value = get(key);
    if (value.isEmpty()) {
      String message =
          path.isEmpty()
              ? "missing required key \"" + key + "\" at the top level"
              : path + " is missing required key \"" + key + "\"";
      problems.at(node, why == null ? message : message + ", " + why);
    }
    return value;
  }

  /** The key's node, for problems about the key itself. */
  Node keyNode(String key) {
    return entries.get(key).getKeyNode();
  }

  /** The keys in file order. */
  List<String> keys() {
    return List.copyOf(entries.keySet());
  }

  /** The path of a child key, as messages print it. */
  String child(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  String path() {
    return path;
  }

  Node node() {
    return node;
  }

  Problems problems() {
    return problems;
  }

  private String where() {
    return path.isEmpty() ? "the top level" : path;
  }

  /**
   * The valid key within edit distance 2 (or equal ignoring case), if there is exactly a best one.
   */
  static String closest(String key, List<String> valid) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String v : valid) {
      int d =
          v.toLowerCase(Locale.ROOT).equals(key.toLowerCase(Locale.ROOT)) ? 0 : distance(key, v);
      if (d < bestDistance) {
        bestDistance = d;
        best = v;
      }
    }
    return bestDistance <= 2 ? best : null;
  }

  /** Optimal string alignment distance: transpositions count once, as in typical typos. */
  private static int distance(String a, String b) {
    if (Math.abs(a.length() - b.length()) > 2 || a.length() > 100) {
      return Integer.MAX_VALUE;
    }
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
