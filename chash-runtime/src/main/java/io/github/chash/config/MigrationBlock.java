package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import io.github.chash.ring.Algorithm;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/** Reads {@code migration:}; its rules are {@link MigrationConfig}'s. */
final class MigrationBlock {
  static final List<String> KEYS = List.of("window", "replaces");
  private static final List<String> REPLACES_KEYS = List.of("since", "nodes");

  private MigrationBlock() {}

  /**
   * @param nodes the configuration's nodes, which {@code replaces.nodes} may name by id
   * @param algorithm the ring's, for the entries of nodes it no longer has
   */
  static MigrationConfig read(
      Optional<YamlMap> block, List<NodeConfig> nodes, Algorithm algorithm) {
    MigrationConfig d = MigrationConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    YamlMap map = block.get().allowOnly(KEYS);
    // zero is a valid window (no migration)
    return new MigrationConfig(
        new Fields(map).durationOrZero("window", d.window()),
        map.get("replaces").map(r -> replaces(r, map, nodes, algorithm)).orElse(List.of()));
  }

  /**
   * {@code replaces:}: one replaced ring, or a list of them, newest first: the rings of earlier
   * rollouts that may still run when this one begins (a change made during another's rollout).
   */
  private static List<MigrationConfig.Replaces> replaces(
      Node value, YamlMap parent, List<NodeConfig> nodes, Algorithm algorithm) {
    Problems problems = parent.problems();
    String path = parent.child("replaces");
    if (!(value instanceof SequenceNode seq)) {
      MigrationConfig.Replaces one = replaced(value, path, problems, nodes, algorithm);
      return one == null ? List.of() : List.of(one);
    }
    List<MigrationConfig.Replaces> rings = new ArrayList<>();
    List<Node> items = seq.getValue();
    for (int i = 0; i < items.size(); i++) {
      MigrationConfig.Replaces ring =
          replaced(items.get(i), path + "[" + i + "]", problems, nodes, algorithm);
      if (ring != null
          && !rings.isEmpty()
          && ring.since().isAfter(rings.get(rings.size() - 1).since())) {
        problems.at(
            items.get(i),
            path
                + "["
                + i
                + "] began after the entry before it: list the replaced rings newest first");
      } else if (ring != null) {
        rings.add(ring);
      }
    }
    if (items.isEmpty()) {
      problems.at(value, path + " must name at least one replaced ring");
    }
    return rings;
  }

  /**
   * One replaced ring: {@code since}, an ISO-8601 instant, and {@code nodes}, each a node's id when
   * the configuration still has it, else its whole entry (a node removed by the change).
   */
  private static MigrationConfig.Replaces replaced(
      Node value, String path, Problems problems, List<NodeConfig> nodes, Algorithm algorithm) {
    Optional<YamlMap> block = YamlMap.of(value, path, problems);
    if (block.isEmpty()) {
      return null;
    }
    YamlMap map = block.get().allowOnly(REPLACES_KEYS);
    int before = problems.count();
    map.require("since", "when the rollout began, e.g. 2026-12-07T10:00:00Z");
    Instant since = new Fields(map).instant("since", null);
    List<NodeConfig> replaced =
        map.require("nodes", "the replaced ring's nodes")
            .map(n -> replacedNodes(n, map.child("nodes"), nodes, algorithm, problems))
            .orElse(List.of());
    return problems.count() > before ? null : new MigrationConfig.Replaces(since, replaced);
  }

  private static List<NodeConfig> replacedNodes(
      Node value, String path, List<NodeConfig> nodes, Algorithm algorithm, Problems problems) {
    if (!(value instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
      problems.at(
          value,
          path
              + " must list the replaced ring's nodes (an id of nodes, or a removed node's entry),"
              + (value instanceof SequenceNode
                  ? " at least one"
                  : " was " + Scalars.describe(value)));
      return List.of();
    }
    Map<String, NodeConfig> current =
        nodes.stream().collect(Collectors.toMap(NodeConfig::id, Function.identity()));
    List<NodeConfig> replaced = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    List<Node> items = seq.getValue();
    for (int i = 0; i < items.size(); i++) {
      Node item = items.get(i);
      String itemPath = path + "[" + i + "]";
      NodeConfig node = replacedNode(item, itemPath, current, algorithm, problems);
      if (node == null) {
        continue;
      }
      if (!ids.add(node.id())) {
        problems.at(item, itemPath + " names " + Quotes.quote(node.id()) + " twice");
      } else {
        replaced.add(node);
      }
    }
    return replaced;
  }

  /** A kept node by its id (the same node: one entry, in {@code nodes}); a removed one whole. */
  private static NodeConfig replacedNode(
      Node item,
      String path,
      Map<String, NodeConfig> current,
      Algorithm algorithm,
      Problems problems) {
    if (item instanceof ScalarNode) {
      String id = Scalars.text(item);
      NodeConfig node = id == null ? null : current.get(id);
      if (node == null) {
        problems.at(
            item,
            path
                + " "
                + Scalars.describe(item)
                + " is not the id of a node in nodes; give a removed node's whole entry,"
                + " e.g. { id: r4, type: redis, uri: \"redis://10.0.0.4:6379\" }");
      }
      return node;
    }
    Optional<YamlMap> entry = YamlMap.of(item, path, problems);
    if (entry.isEmpty()) {
      return null;
    }
    NodeConfig node = NodesBlock.readOne(entry.get(), algorithm);
    if (node != null && current.containsKey(node.id())) {
      problems.at(
          item,
          path
              + " repeats node "
              + Quotes.quote(node.id())
              + " of nodes: name a node the change keeps by its id only");
      return null;
    }
    return node;
  }
}
