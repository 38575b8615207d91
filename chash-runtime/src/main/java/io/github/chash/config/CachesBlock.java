package io.github.chash.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads {@code caches:}, a mapping from cache name to its settings; the rules are {@link
 * CacheConfig}'s.
 */
final class CachesBlock {
  static final List<String> KEYS = List.of("ttl");

  private CachesBlock() {}

  static Map<String, CacheConfig> read(Optional<YamlMap> block) {
    Map<String, CacheConfig> caches = new LinkedHashMap<>();
    if (block.isEmpty()) {
      return caches;
    }
    YamlMap map = block.get();
    for (String name : map.keys()) {
      String path = "caches." + name;
      String nameProblem = CacheConfig.nameProblem(name);
      if (nameProblem != null) {
        map.problems().at(map.keyNode(name), "cache name " + nameProblem);
        continue;
      }
      Duration ttl = null;
      Optional<YamlMap> settings = YamlMap.of(map.get(name).orElseThrow(), path, map.problems());
      if (settings.isPresent()) {
        ttl = new Fields(settings.get().allowOnly(KEYS)).duration("ttl", null);
      }
      caches.put(name, new CacheConfig(name, ttl));
    }
    return caches;
  }
}
