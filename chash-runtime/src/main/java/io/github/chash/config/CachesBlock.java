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
  static final List<String> KEYS =
      List.of("ttl", "jitter", "refreshAhead", "nullTtl", "keys", "codec");
  private static final List<String> LAYOUTS =
      java.util.Arrays.stream(KeyLayout.values()).map(KeyLayout::configName).toList();

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
      double jitter = 0;
      double refreshAhead = 0;
      Duration nullTtl = null;
      KeyLayout keys = KeyLayout.PREFIXED;
      String codec = null;
      Optional<YamlMap> settings = YamlMap.of(map.get(name).orElseThrow(), path, map.problems());
      if (settings.isPresent()) {
        Fields f = new Fields(settings.get().allowOnly(KEYS));
        ttl = f.duration("ttl", null);
        boolean ttlBad = f.has("ttl") && ttl == null; // reported already: no second message
        Duration ruleTtl = ttlBad ? Duration.ofDays(365) : ttl;
        double j = f.percent("jitter", 0.0);
        jitter = f.check("jitter", CacheConfig.jitterProblem(j, ruleTtl), j, 0.0);
        double r = f.percent("refreshAhead", 0.0);
        refreshAhead = f.check("refreshAhead", CacheConfig.refreshAheadProblem(r, ruleTtl), r, 0.0);
        Duration n = f.duration("nullTtl", null);
        nullTtl = f.check("nullTtl", CacheConfig.nullTtlProblem(n, ttlBad ? null : ttl), n, null);
        codec = f.choice("codec", CacheConfig.CODECS, null);
        KeyLayout k = KeyLayout.named(f.choice("keys", LAYOUTS, KeyLayout.PREFIXED.configName()));
        keys =
            f.check("keys", ttlBad ? null : CacheConfig.keysProblem(k, ttl), k, KeyLayout.PREFIXED);
        if (ttlBad) {
          jitter = 0;
          refreshAhead = 0;
          nullTtl = null;
          keys = KeyLayout.PREFIXED; // reported: this placeholder never serves
        }
      }
      caches.put(name, new CacheConfig(name, ttl, jitter, refreshAhead, nullTtl, keys, codec));
    }
    return caches;
  }
}
