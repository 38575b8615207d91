package io.github.chash.config;

import java.util.Optional;

/** Reads {@code memcached:}; its rules are {@link MemcachedConfig}'s. */
final class MemcachedBlock {
  private MemcachedBlock() {}

  static MemcachedConfig read(Optional<YamlMap> block) {
    MemcachedConfig d = MemcachedConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    ValueBlock v =
        ValueBlock.read(
            block.get().allowOnly(ValueBlock.KEYS),
            "memcached",
            MemcachedConfig::keyPrefixProblem,
            new ValueBlock(d.keyPrefix(), d.codec(), d.allowedClasses(), d.maxValueSize()),
            MemcachedConfig.MAX_VALUE_SIZE_LIMIT);
    return new MemcachedConfig(v.keyPrefix(), v.codec(), v.allowedClasses(), v.maxValueSize());
  }
}
