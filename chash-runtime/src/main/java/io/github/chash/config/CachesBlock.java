package io.github.chash.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads and checks {@code caches:}, a mapping from cache name to its settings. */
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
      if (name.isBlank()) {
        map.problems()
            .at(map.keyNode(name), "cache names must not be empty, was " + Scalars.quote(name));
        continue;
      }
      if (name.contains(":")) {
        // The routing key is name + ":" + key; a colon in the name would make two caches collide.
        map.problems()
            .at(map.keyNode(name), "cache name " + Scalars.quote(name) + " must not contain ':'");
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
