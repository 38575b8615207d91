package io.github.chash.config;

import io.github.chash.internal.codec.JdkSerializationCodec;
import io.github.chash.internal.text.Quotes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * What {@code redis:} and {@code memcached:} share, stated once for both: their keys ({@code
 * keyPrefix}, {@code codec}, {@code allow}, {@code maxValueSize}), their defaults, the checks of
 * their records' constructors and the reading of the block. Each block brings its own {@code
 * keyPrefix} rule and size limit.
 *
 * @param <C> the block's record
 */
final class ValueRules<C> {
  /** Makes the block's record from its values. */
  @FunctionalInterface
  interface Make<C> {
    C make(String keyPrefix, String codec, List<String> allowedClasses, long maxValueSize);
  }

  static final List<String> KEYS = List.of("keyPrefix", "codec", "allow", "maxValueSize");

  /** The default {@code maxValueSize}: 1 MB, memcached's default item size limit. */
  static final long DEFAULT_MAX_VALUE_SIZE = 1 << 20;

  private final String block;
  private final Function<String, String> prefixRule;
  private final long sizeLimit;
  private final Rules.Whole sizeRule;
  private final Make<C> make;

  /**
   * @param block {@code redis} or {@code memcached}, for messages
   * @param prefixRule the block's {@code keyPrefix} rule: null when valid, else what is wrong
   * @param sizeLimit the largest {@code maxValueSize} the block allows
   * @param make the block record's constructor
   */
  ValueRules(String block, Function<String, String> prefixRule, long sizeLimit, Make<C> make) {
    this.block = block;
    this.prefixRule = prefixRule;
    this.sizeLimit = sizeLimit;
    this.sizeRule = new Rules.Whole(1, sizeLimit, "between 1 and " + sizeLimit + " bytes");
    this.make = make;
  }

  /** The defaults: prefix {@code chash:}, the JDK codec with the built-in allow-list, 1 MB. */
  C defaults() {
    return make.make("chash:", "jdk", List.of(), DEFAULT_MAX_VALUE_SIZE);
  }

  /**
   * Checks a record's values, as its constructor does.
   *
   * @return a copy of the allow-list
   * @throws IllegalArgumentException if a value breaks its rule
   */
  List<String> check(
      String keyPrefix, String codec, List<String> allowedClasses, long maxValueSize) {
    Rules.require(block + ".keyPrefix", prefixRule.apply(keyPrefix));
    Rules.require(
        block + ".codec",
        RedisConfig.CODECS.contains(codec)
            ? null
            : "must be one of "
                + String.join(", ", RedisConfig.CODECS)
                + "; was "
                + (codec == null ? "null" : Quotes.quote(codec)));
    List<String> allowed = List.copyOf(allowedClasses);
    for (String pattern : allowed) {
      Rules.require(block + ".allow entry", JdkSerializationCodec.allowProblem(pattern));
    }
    Rules.require(block + ".maxValueSize", sizeRule.problem(maxValueSize));
    return allowed;
  }

  /** Reads the block, each missing key at its default; the defaults when there is no block. */
  C read(Optional<YamlMap> written) {
    C d = defaults();
    if (written.isEmpty()) {
      return d;
    }
    YamlMap map = written.get().allowOnly(KEYS);
    Fields f = new Fields(map);
    String prefix = "chash:";
    if (f.has("keyPrefix")) {
      String problem = prefixRule.apply(Scalars.text(map.get("keyPrefix").orElseThrow()));
      if (problem != null) {
        f.problem("keyPrefix", problem);
      } else {
        prefix = f.string("keyPrefix", prefix);
      }
    }
    String codec = f.choice("codec", RedisConfig.CODECS, "jdk");
    List<String> allow = map.get("allow").map(n -> patterns(n, map)).orElse(List.of());
    long maxValueSize = f.size("maxValueSize", sizeLimit, DEFAULT_MAX_VALUE_SIZE);
    return make.make(prefix, codec, allow, maxValueSize);
  }

  /** The block's {@code allow:} list. */
  private List<String> patterns(Node value, YamlMap map) {
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
          item instanceof ScalarNode && text != null
              ? JdkSerializationCodec.allowProblem(text)
              : "";
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
