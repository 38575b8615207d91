package io.github.chash.config;

import io.github.chash.ring.Algorithm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/** Reads and checks {@code nodes:}: each node's fields, then duplicate ids and servers. */
final class NodesBlock {
  static final List<String> KEYS = List.of("id", "type", "weight", "maximumSize", "uri", "name");
  private static final List<String> TYPES = List.of("local", "redis");

  private NodesBlock() {}

  static List<NodeConfig> read(Node value, Algorithm algorithm, Problems problems) {
    if (!(value instanceof SequenceNode)) {
      problems.at(value, "nodes must be a list of nodes, was " + Scalars.describe(value));
      return List.of();
    }
    List<Node> items = ((SequenceNode) value).getValue();
    if (items.isEmpty()) {
      problems.at(value, "nodes must list at least one node");
      return List.of();
    }
    List<NodeConfig> nodes = new ArrayList<>();
    Map<String, String> idOwners = new HashMap<>();
    Map<String, String> nameOwners = new HashMap<>();
    Map<String, String> serverOwners = new HashMap<>();
    for (int i = 0; i < items.size(); i++) {
      String path = "nodes[" + i + "]";
      Node item = items.get(i);
      if (Scalars.isNull(item)) {
        problems.at(item, path + " must be a mapping with at least `id`, was empty");
        continue;
      }
      Optional<YamlMap> map = YamlMap.of(item, path, problems);
      if (map.isPresent()) {
        NodeConfig node =
            readNode(map.get().allowOnly(KEYS), algorithm, idOwners, nameOwners, serverOwners);
        if (node != null) {
          nodes.add(node);
        }
      }
    }
    return nodes;
  }

  private static NodeConfig readNode(
      YamlMap map,
      Algorithm algorithm,
      Map<String, String> idOwners,
      Map<String, String> nameOwners,
      Map<String, String> serverOwners) {
    Problems problems = map.problems();
    Fields f = new Fields(map);
    Optional<Node> idNode = map.require("id", null);
    String id = idNode.isPresent() ? f.string("id", null) : null;
    if (id != null) {
      checkText(f, "id", id);
      String first = idOwners.putIfAbsent(id, map.path());
      if (first != null) {
        f.problem("id", Scalars.quote(id) + " is already used by " + first);
      }
    }
    String name = null;
    if (f.has("name")) {
      if (algorithm != Algorithm.KETAMA && algorithm != Algorithm.JEDIS) {
        f.problem(
            "name",
            "applies only to algorithms ketama and jedis (which name a server's points by it);"
                + " remove it for "
                + algorithm.configName());
      } else {
        name = f.string("name", null);
        if (name != null) {
          checkText(f, "name", name);
          String first = nameOwners.putIfAbsent(name, map.path());
          if (first != null) {
            f.problem("name", Scalars.quote(name) + " is already used by " + first);
          }
        }
      }
    }
    NodeType type =
        f.choice("type", TYPES, "local").equals("redis") ? NodeType.REDIS : NodeType.LOCAL;
    int weight = (int) f.integer("weight", 1, Integer.MAX_VALUE, "a positive integer", 1);
    if (algorithm == Algorithm.JUMP && weight != 1) {
      f.problem(
          "weight",
          "must be 1 for algorithm jump (jump knows buckets, not weights), was " + weight);
    }
    long maximumSize = 0;
    String uri = null;
    if (type == NodeType.LOCAL) {
      maximumSize =
          f.integer(
              "maximumSize",
              1,
              Long.MAX_VALUE,
              "a positive integer",
              NodeConfig.DEFAULT_MAXIMUM_SIZE);
      if (f.has("uri")) {
        f.problem("uri", "is only valid for type redis; add `type: redis` or remove uri");
      }
    } else {
      if (f.has("maximumSize")) {
        f.problem(
            "maximumSize",
            "is only valid for type local; a Redis server bounds its memory itself (maxmemory)");
      }
      if (map.require("uri", "required for type redis").isPresent()) {
        uri = f.string("uri", null);
        if (uri != null) {
          RedisUris.Checked checked = RedisUris.check(uri);
          for (String problem : checked.problems()) {
            f.problem("uri", problem);
          }
          if (checked.problems().isEmpty()) {
            String first = serverOwners.putIfAbsent(checked.server(), map.path());
            if (first != null) {
              f.problem(
                  "uri", "points to the same server as " + first + " (" + checked.server() + ")");
            }
          }
        }
      }
    }
    if (id == null) {
      return null;
    }
    return new NodeConfig(id, type, weight, maximumSize, uri, name);
  }

  /** An id or a name: no white space around it, no control characters in it. */
  private static void checkText(Fields f, String key, String value) {
    if (!value.equals(value.strip())) {
      f.problem(key, "must not start or end with white space, was " + Scalars.quote(value));
    } else if (value.chars().anyMatch(Character::isISOControl)) {
      // a line break or tab in an id breaks every line-oriented output (locate, logs, reports)
      f.problem(key, "must not contain control characters, was " + Scalars.quote(value));
    }
  }
}
