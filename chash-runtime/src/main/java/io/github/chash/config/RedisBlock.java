package io.github.chash.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/** Reads {@code redis:}; its rules are {@link RedisConfig}'s. */
final class RedisBlock {
  static final List<String> KEYS = List.of("keyPrefix", "codec", "allow", "maxValueSize");

  private RedisBlock() {}

  static RedisConfig read(Optional<YamlMap> block) {
    RedisConfig d = RedisConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    YamlMap map = block.get().allowOnly(KEYS);
    Fields f = new Fields(map);
    String prefix = d.keyPrefix();
    if (f.has("keyPrefix")) {
      String text = Scalars.text(map.get("keyPrefix").orElseThrow());
      String problem = RedisConfig.keyPrefixProblem(text);
      if (problem != null) {
        f.problem("keyPrefix", problem);
      } else {
        prefix = f.string("keyPrefix", d.keyPrefix());
      }
    }
    String codec = f.choice("codec", RedisConfig.CODECS, d.codec());
    List<String> allow =
        map.get("allow").map(n -> patterns(n, map, "redis")).orElse(d.allowedClasses());
    long maxValueSize = f.size("maxValueSize", RedisConfig.MAX_VALUE_SIZE_LIMIT, d.maxValueSize());
    return new RedisConfig(prefix, codec, allow, maxValueSize);
  }

  /** The {@code allow:} list of the {@code block} ({@code redis}, {@code memcached}). */
  static List<String> patterns(Node value, YamlMap map, String block) {
    Problems problems = map.problems();
    if (!(value instanceof SequenceNode)) {
      problems.at(
          value, block + ".allow must be a list of class patterns, was " + Scalars.describe(value));
      return List.of();
    }
    List<String> patterns = new ArrayList<>();
    List<Node> items = ((SequenceNode) value).getValue();
    for (int i = 0; i < items.size(); i++) {
      Node item = items.get(i);
      String path = block + ".allow[" + i + "]";
      String text = Scalars.text(item);
      String problem =
          item instanceof ScalarNode && text != null ? RedisConfig.allowProblem(text) : "";
      if (problem == null) {
        patterns.add(text);
      } else if (problem.isEmpty()) {
        problems.at(
            item,
            path
                + " must be a class pattern like com.example.* or com.example.Order, was "
                + Scalars.describe(item));
      } else {
        problems.at(item, path + " " + problem);
      }
    }
    return patterns;
  }
}
