package io.github.chash.config;

import java.util.List;
import java.util.Optional;

/** Reads {@code memcached:}; its rules are {@link MemcachedConfig}'s. */
final class MemcachedBlock {
  static final List<String> KEYS = List.of("keyPrefix", "codec", "allow", "maxValueSize");

  private MemcachedBlock() {}

  static MemcachedConfig read(Optional<YamlMap> block) {
    MemcachedConfig d = MemcachedConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    YamlMap map = block.get().allowOnly(KEYS);
    Fields f = new Fields(map);
    String prefix = d.keyPrefix();
    if (f.has("keyPrefix")) {
      String text = Scalars.text(map.get("keyPrefix").orElseThrow());
      String problem = MemcachedConfig.keyPrefixProblem(text);
      if (problem != null) {
        f.problem("keyPrefix", problem);
      } else {
        prefix = f.string("keyPrefix", d.keyPrefix());
      }
    }
    String codec = f.choice("codec", RedisConfig.CODECS, d.codec());
    List<String> allow =
        map.get("allow")
            .map(n -> RedisBlock.patterns(n, map, "memcached"))
            .orElse(d.allowedClasses());
    long maxValueSize =
        f.size("maxValueSize", MemcachedConfig.MAX_VALUE_SIZE_LIMIT, d.maxValueSize());
    return new MemcachedConfig(prefix, codec, allow, maxValueSize);
  }
}
