package io.github.chash.spring.boot.metrics;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.ShardedCache;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.cache.CacheMeterBinder;

/**
 * Micrometer's standard cache meters for one chash cache, under the names every {@link
 * CacheMeterBinder} uses, from the cache's own counters (so both annotation families count): {@code
 * cache.gets{result=hit|miss}}, {@code cache.puts} (entries written that landed: puts and fills
 * after a load), {@code cache.evictions} (explicit evictions and clears, not expiries), {@code
 * cache.load{result=success|failure}} as Caffeine's binder has it; and {@code chash.cache.refused}
 * (values a node refused: too large, not encodable or decodable). No {@code cache.size}: the nodes
 * hold every cache's entries together.
 */
final class ChashCacheMeterBinder extends CacheMeterBinder<ShardedCache> {
  ChashCacheMeterBinder(ShardedCache cache, Iterable<Tag> tags) {
    super(cache, cache.name(), tags);
  }

  private CacheStats stats() {
    ShardedCache cache = getCache();
    return cache == null ? CacheStats.empty() : cache.stats();
  }

  @Override
  protected Long size() {
    return null;
  }

  @Override
  protected long hitCount() {
    return stats().hitCount();
  }

  @Override
  protected Long missCount() {
    return stats().missCount();
  }

  @Override
  protected Long evictionCount() {
    return stats().evictionCount();
  }

  @Override
  protected long putCount() {
    return stats().putCount();
  }

  @Override
  protected void bindImplementationSpecificMetrics(MeterRegistry registry) {
    // Micrometer keeps the state object weakly: the cache, which its manager holds.
    FunctionCounter.builder("cache.load", getCache(), c -> c.stats().loadCount())
        .tags(getTagsWithCacheName())
        .tag("result", "success")
        .description("The number of times a value was loaded (the method ran) and returned")
        .register(registry);
    FunctionCounter.builder("cache.load", getCache(), c -> c.stats().loadFailureCount())
        .tags(getTagsWithCacheName())
        .tag("result", "failure")
        .description("The number of times loading a value (running the method) threw")
        .register(registry);
    FunctionCounter.builder("chash.cache.refused", getCache(), c -> c.stats().refusedCount())
        .tags(getTagsWithCacheName())
        .description("Values a node refused to store or return: too large, not (de)codable")
        .register(registry);
  }
}
