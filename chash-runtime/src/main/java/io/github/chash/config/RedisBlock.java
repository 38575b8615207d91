package io.github.chash.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/** Reads {@code redis:}; its rules are {@link RedisConfig}'s. */
final class RedisBlock {
  private RedisBlock() {}

  static RedisConfig read(Optional<YamlMap> block) {
    RedisConfig d = RedisConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    ValueBlock v =
        ValueBlock.read(
            block.get().allowOnly(ValueBlock.KEYS),
            "redis",
            RedisConfig::keyPrefixProblem,
            new ValueBlock(d.keyPrefix(), d.codec(), d.allowedClasses(), d.maxValueSize()),
            RedisConfig.MAX_VALUE_SIZE_LIMIT);
    return new RedisConfig(v.keyPrefix(), v.codec(), v.allowedClasses(), v.maxValueSize());
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
