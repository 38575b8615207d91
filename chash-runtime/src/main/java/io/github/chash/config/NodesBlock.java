package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import io.github.chash.ring.Algorithm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Reads {@code nodes:}: each node's fields under {@link NodeConfig}'s rules, then duplicate ids and
 * servers.
 */
final class NodesBlock {
  static final List<String> KEYS =
      List.of("id", "type", "weight", "maximumSize", "uri", "name", "readFrom", "replicaLag");
  private static final List<String> READ_FROM =
      java.util.Arrays.stream(ReadFrom.values()).map(ReadFrom::configName).toList();

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

  /**
   * One node entry on its own (a node another list names, such as {@code migration.replaces}); null
   * when it has problems, which are reported.
   */
  static NodeConfig readOne(YamlMap map, Algorithm algorithm) {
    return readNode(
        map.allowOnly(KEYS), algorithm, new HashMap<>(), new HashMap<>(), new HashMap<>());
  }

  private static NodeConfig readNode(
      YamlMap map,
      Algorithm algorithm,
      Map<String, String> idOwners,
      Map<String, String> nameOwners,
      Map<String, String> serverOwners) {
    Problems problems = map.problems();
    int before = problems.count();
    Fields f = new Fields(map);
    Optional<Node> idNode = map.require("id", null);
    String id = idNode.isPresent() ? f.string("id", null) : null;
    if (id != null) {
      id = f.check("id", io.github.chash.ring.Node.idProblem(id), id, null);
    }
    if (id != null) {
      String first = idOwners.putIfAbsent(id, map.path());
      if (first != null) {
        f.problem("id", Quotes.quote(id) + " is already used by " + first);
      }
    }
    String name = null;
    if (f.has("name")) {
      if (algorithm.nameProblem() != null) {
        f.problem("name", algorithm.nameProblem());
      } else {
        name = f.string("name", null);
        if (name != null) {
          name = f.check("name", io.github.chash.ring.Node.idProblem(name), name, null);
        }
        if (name != null) {
          String first = nameOwners.putIfAbsent(name, map.path());
          if (first != null) {
            f.problem("name", Quotes.quote(name) + " is already used by " + first);
          }
        }
      }
    }
    String typeName = f.string("type", NodeType.LOCAL.configName());
    typeName = f.check("type", typeProblem(typeName), typeName, NodeType.LOCAL.configName());
    NodeType type = NodeType.of(typeName);
    int weight = (int) f.integer("weight", 1, Integer.MAX_VALUE, "a positive integer", 1);
    weight = f.check("weight", algorithm.weightProblem(weight), weight, 1);
    long maximumSize = 0;
    String uri = null;
    if (type.equals(NodeType.LOCAL)) {
      maximumSize =
          f.integer(
              "maximumSize",
              1,
              Long.MAX_VALUE,
              "a positive integer",
              NodeConfig.DEFAULT_MAXIMUM_SIZE);
      if (f.has("uri")) {
        f.problem("uri", NodeConfig.uriProblems(type, "").get(0));
      }
    } else if (!type.builtIn()) {
      // a type a jar provides: its factory reads the uri, if it takes one
      if (f.has("maximumSize")) {
        f.problem("maximumSize", NodeConfig.maximumSizeProblem(type, 1));
      }
      uri = f.string("uri", null);
      if (uri != null) {
        for (String problem : NodeConfig.uriProblems(type, uri)) {
          f.problem("uri", problem);
        }
      }
    } else {
      if (f.has("maximumSize")) {
        f.problem("maximumSize", NodeConfig.maximumSizeProblem(type, 1));
      }
      if (map.require("uri", "required for type " + type.configName()).isPresent()) {
        uri = f.string("uri", null);
        if (uri != null) {
          List<String> uriProblems = NodeConfig.uriProblems(type, uri);
          for (String problem : uriProblems) {
            f.problem("uri", problem);
          }
          if (uriProblems.isEmpty()) {
            String server = NodeConfig.server(type, uri);
            String first = serverOwners.putIfAbsent(server, map.path());
            if (first != null) {
              f.problem("uri", "points to the same server as " + first + " (" + server + ")");
            }
          }
        }
      }
    }
    ReadFrom readFrom = readFrom(f, type, uri);
    Duration replicaLag = f.duration("replicaLag", null);
    if (replicaLag != null && readFrom != ReadFrom.REPLICA_PREFERRED) {
      f.problem("replicaLag", "is only valid with readFrom: replicaPreferred");
    }
    if (problems.count() > before) {
      return null; // reported; a NodeConfig of these values would only repeat the problem
    }
    return new NodeConfig(id, type, weight, maximumSize, uri, name, readFrom, replicaLag);
  }

  /**
   * The rule of {@code type}: a valid name ({@link NodeType#nameProblem}), and, unless it is one of
   * chash's own, not a near miss of one ({@code memcache}, {@code Redis}): a type chash does not
   * know is only found when the cache is built, so a typo of {@code redis} would otherwise pass the
   * configuration's checks (and the Maven plugin's gate).
   */
  private static String typeProblem(String name) {
    List<String> own = NodeType.ownNames();
    String guess = own.contains(name) ? null : YamlMap.closest(name, own);
    if (guess != null) {
      return "is not one of chash's own types ("
          + String.join(", ", own)
          + "), was "
          + Quotes.quote(name)
          + "; did you mean \""
          + guess
          + "\"? (a type of one's own needs a name further from theirs)";
    }
    String problem = NodeType.nameProblem(name);
    return problem == null
        ? null
        : problem + " (chash's own types: " + String.join(", ", own) + ")";
  }

  /** {@code readFrom}, under {@link NodeConfig#readFromProblem}'s rule once the uri is valid. */
  private static ReadFrom readFrom(Fields f, NodeType type, String uri) {
    String written = f.choice("readFrom", READ_FROM, ReadFrom.PRIMARY.configName());
    ReadFrom readFrom =
        java.util.Arrays.stream(ReadFrom.values())
            .filter(r -> r.configName().equals(written))
            .findFirst()
            .orElseThrow();
    if (f.has("readFrom") && (!type.equals(NodeType.REDIS) || uri != null)) {
      // a redis node whose uri is missing or bad was reported at the uri already
      readFrom =
          f.check("readFrom", NodeConfig.readFromProblem(type, uri, readFrom), readFrom, readFrom);
    }
    return readFrom;
  }
}
