package io.github.chash.config;

import java.util.List;
import java.util.function.Function;

/**
 * The keys {@code redis:} and {@code memcached:} share, read once for both: {@code keyPrefix},
 * {@code codec}, {@code allow}, {@code maxValueSize}. Each block's rules stay its config's.
 */
record ValueBlock(String keyPrefix, String codec, List<String> allowedClasses, long maxValueSize) {
  static final List<String> KEYS = List.of("keyPrefix", "codec", "allow", "maxValueSize");

  /**
   * Reads the block's keys, each missing one at its default.
   *
   * @param block {@code redis} or {@code memcached}, for messages
   * @param prefixRule the block's {@code keyPrefix} rule: null when valid, else what is wrong
   * @param sizeLimit the largest {@code maxValueSize} the block allows
   */
  static ValueBlock read(
      YamlMap map,
      String block,
      Function<String, String> prefixRule,
      ValueBlock d,
      long sizeLimit) {
    Fields f = new Fields(map);
    String prefix = d.keyPrefix();
    if (f.has("keyPrefix")) {
      String problem = prefixRule.apply(Scalars.text(map.get("keyPrefix").orElseThrow()));
      if (problem != null) {
        f.problem("keyPrefix", problem);
      } else {
        prefix = f.string("keyPrefix", d.keyPrefix());
      }
    }
    String codec = f.choice("codec", RedisConfig.CODECS, d.codec());
    List<String> allow =
        map.get("allow").map(n -> RedisBlock.patterns(n, map, block)).orElse(d.allowedClasses());
    long maxValueSize = f.size("maxValueSize", sizeLimit, d.maxValueSize());
    return new ValueBlock(prefix, codec, allow, maxValueSize);
  }
}
