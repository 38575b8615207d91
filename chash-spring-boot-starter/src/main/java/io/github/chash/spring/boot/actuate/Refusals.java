package io.github.chash.spring.boot.actuate;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.spring.cache.ChashCacheManager;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values each cache refused since the start: its nodes' refusals ({@code CacheStats}'s {@code
 * refusedCount}) and, for a cache Spring's annotations store as JSON, the JSON refused by its
 * Spring view. Thread-safe.
 */
final class Refusals {
  private final ShardedCacheManager manager;
  private final ChashCacheManager springCaches;

  /**
   * @param manager the sharded cache manager
   * @param springCaches Spring's cache manager over it, or null when the application has none
   */
  Refusals(ShardedCacheManager manager, ChashCacheManager springCaches) {
    this.manager = manager;
    this.springCaches = springCaches;
  }

  /** {@return the total of a cache's refusals} */
  long of(String cache) {
    long json = springCaches == null ? 0 : springCaches.jsonRefusals().getOrDefault(cache, 0L);
    return manager.cache(cache).stats().refusedCount() + json;
  }

  /** {@return cache name to its refusals, the caches with some only, in configuration order} */
  Map<String, Long> byCache() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String name : manager.cacheNames()) {
      long count = of(name);
      if (count > 0) {
        out.put(name, count);
      }
    }
    return out;
  }
}
