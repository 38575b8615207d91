package io.github.chash.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Reads {@code caches:}, a mapping from cache name to its settings; the rules are {@link
 * CacheConfig}'s.
 */
final class CachesBlock {
  static final List<String> KEYS =
      List.of("ttl", "jitter", "refreshAhead", "nullTtl", "keys", "codec", "near");
  static final List<String> NEAR_KEYS = List.of("maximumSize", "ttl", "invalidation");
  private static final List<String> INVALIDATIONS =
      java.util.Arrays.stream(NearInvalidation.values()).map(NearInvalidation::configName).toList();
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
      NearConfig near = null;
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
        if (f.has("near")) {
          near = near(settings.get(), path + ".near");
          near = f.check("near", near == null ? null : NearConfig.keysProblem(keys), near, null);
        }
        if (ttlBad) {
          jitter = 0;
          refreshAhead = 0;
          nullTtl = null;
          keys = KeyLayout.PREFIXED; // reported: this placeholder never serves
        }
      }
      caches.put(
          name, new CacheConfig(name, ttl, jitter, refreshAhead, nullTtl, keys, codec, near));
    }
    return caches;
  }

  /**
   * {@code near:} of one cache: a mapping that needs {@code maximumSize} and {@code ttl}; null when
   * it has a problem (reported).
   */
  private static NearConfig near(YamlMap cache, String path) {
    Node value = cache.get("near").orElseThrow();
    if (Scalars.isNull(value)) {
      cache.problems().at(value, path + " must be a mapping with maximumSize and ttl, was empty");
      return null;
    }
    Optional<YamlMap> block = YamlMap.of(value, path, cache.problems());
    if (block.isEmpty()) {
      return null;
    }
    int before = cache.problems().count();
    YamlMap map = block.get().allowOnly(NEAR_KEYS);
    map.require("maximumSize", "the most entries this JVM keeps");
    map.require("ttl", "the longest an entry is served from this JVM");
    Fields f = new Fields(map);
    long maximumSize = f.integer("maximumSize", NearConfig.MAXIMUM_SIZE, 1);
    Duration ttl = f.duration("ttl", null);
    NearInvalidation invalidation =
        NearInvalidation.named(
            f.choice("invalidation", INVALIDATIONS, NearInvalidation.SERVER.configName()));
    return cache.problems().count() == before
        ? new NearConfig(maximumSize, ttl, invalidation)
        : null;
  }
}
