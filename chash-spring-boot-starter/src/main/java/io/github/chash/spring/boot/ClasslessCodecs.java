package io.github.chash.spring.boot;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Which caches' values go through a codec that writes no class name ({@code jackson}, with
 * polymorphic typing off on purpose): read back as {@code Object}, such a value is a {@code Map} or
 * a {@code List}, not the class that was written. The starter stores those caches' values as JSON
 * by the methods' declared type instead. The other codecs carry the class ({@code jdk}, and
 * memcached's {@code spymemcached} and {@code xmemcached}, which JDK-serialize objects) or hold one
 * type only ({@code string}, {@code bytes}).
 */
final class ClasslessCodecs {
  /** The codecs that write no class name. */
  static final Set<String> CLASSLESS = Set.of("jackson");

  private ClasslessCodecs() {}

  /**
   * {@return cache name to where its values meet a class-less codec ({@code codec jackson}, {@code
   * redis.codec jackson}), or to null when they do not} A cache's own {@code codec} decides;
   * without one, the node blocks' ({@code redis.codec}, {@code memcached.codec}) do, whether or not
   * the ring has such nodes today (they may join later). Without the configuration (an
   * application's own manager), no cache is known to.
   *
   * @param config the configuration the manager was built from, or null when unknown
   */
  static Function<String, String> of(ChashConfig config) {
    if (config == null) {
      return name -> null;
    }
    return name -> {
      CacheConfig cache = config.caches().get(name);
      if (cache != null && cache.codec() != null) {
        return CLASSLESS.contains(cache.codec()) ? "its codec " + cache.codec() : null;
      }
      List<String> blocks = new ArrayList<>();
      if (CLASSLESS.contains(config.redis().codec())) {
        blocks.add("redis.codec " + config.redis().codec());
      }
      if (CLASSLESS.contains(config.memcached().codec())) {
        blocks.add("memcached.codec " + config.memcached().codec());
      }
      return blocks.isEmpty() ? null : String.join(" and ", blocks);
    };
  }
}
