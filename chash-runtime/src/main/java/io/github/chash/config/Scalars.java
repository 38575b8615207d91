package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/** Turns YAML nodes into the short descriptions that messages quote as "was ...". */
final class Scalars {
  private static final Pattern NUMBER =
      Pattern.compile("[-+]?[0-9][0-9_]*(\\.[0-9]*)?([eE][-+]?[0-9]+)?");

  private Scalars() {}

  /**
   * The scalar's text, or null for a null value ({@code ~}, {@code null} or nothing) or a
   * non-scalar.
   */
  static String text(Node node) {
    if (!(node instanceof ScalarNode)) {
      return null;
    }
    ScalarNode scalar = (ScalarNode) node;
    if (scalar.isPlain() && Tag.NULL.equals(scalar.getTag())) {
      return null;
    }
    return scalar.getValue();
  }

  /** Whether the node is a null scalar ({@code ~}, {@code null} or an empty value). */
  static boolean isNull(Node node) {
    return node instanceof ScalarNode && text(node) == null;
  }

  /** How the value appears in messages: a number as written, text quoted, or its kind. */
  static String describe(Node node) {
    switch (node.getNodeType()) {
      case MAPPING:
        return "a mapping";
      case SEQUENCE:
        return "a list";
      default:
        String text = text(node);
        if (text == null) {
          return "empty";
        }
        ScalarNode scalar = (ScalarNode) node;
        return scalar.isPlain() && NUMBER.matcher(text).matches() ? text : Quotes.quote(text);
    }
  }
}
