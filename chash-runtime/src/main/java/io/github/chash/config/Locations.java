package io.github.chash.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Where each value of a file was written, by the path messages use ({@code nodes[2].uri}), as
 * {@code file:line:column}: for problems found after parsing ({@link ChashConfig#where}).
 */
final class Locations {
  private Locations() {}

  static Map<String, String> of(Node root, String file) {
    Map<String, String> out = new HashMap<>();
    walk(root, "", file, out);
    return out;
  }

  private static void walk(Node node, String path, String file, Map<String, String> out) {
    if (!path.isEmpty()) {
      node.getStartMark()
          .ifPresent(
              m ->
                  out.putIfAbsent(
                      path, file + ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1)));
    }
    if (node instanceof MappingNode mapping) {
      for (NodeTuple tuple : mapping.getValue()) {
        String key = Scalars.text(tuple.getKeyNode());
        if (key != null) {
          walk(tuple.getValueNode(), path.isEmpty() ? key : path + "." + key, file, out);
        }
      }
    } else if (node instanceof SequenceNode sequence) {
      List<Node> items = sequence.getValue();
      for (int i = 0; i < items.size(); i++) {
        walk(items.get(i), path + "[" + i + "]", file, out);
      }
    }
  }
}
