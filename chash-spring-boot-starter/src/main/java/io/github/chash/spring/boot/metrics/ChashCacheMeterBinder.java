package io.github.chash.spring.boot.metrics;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.ShardedCache;
import io.github.chash.spring.cache.ChashCache;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.cache.CacheMeterBinder;

/**
 * Micrometer's standard cache meters for one chash cache, under the names every {@link
 * CacheMeterBinder} uses: {@code cache.gets{result=hit|miss}} and {@code
 * cache.load{result=success|failure}} from the cache's own counters (both annotation families), and
 * {@code cache.puts} and {@code cache.evictions} from its Spring view when there is one (the
 * runtime does not count puts and evictions yet). No {@code cache.size}: the nodes hold every
 * cache's entries together.
 */
final class ChashCacheMeterBinder extends CacheMeterBinder<ShardedCache> {
  private static final long UNSUPPORTED = -1L;

  private final ChashCache springView;

  /**
   * @param springView the Spring cache over the same cache, or null when Spring caching does not
   *     use chash
   */
  ChashCacheMeterBinder(ShardedCache cache, ChashCache springView, Iterable<Tag> tags) {
    super(cache, cache.name(), tags);
    this.springView = springView;
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
    return springView == null ? null : springView.evictionCount();
  }

  @Override
  protected long putCount() {
    return springView == null ? UNSUPPORTED : springView.putCount();
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
  }
}
