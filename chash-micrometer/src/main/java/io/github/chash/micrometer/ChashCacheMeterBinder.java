package io.github.chash.micrometer;

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
 * after a load), {@code cache.load{result=success|failure}} as Caffeine's binder has it; {@code
 * cache.removals} (explicit evictions and each node a clear emptied, {@link
 * CacheStats#evictionCount()}), the name Spring Boot's Redis cache meters give deletes; and {@code
 * chash.cache.refused} (values a node refused: too large, not encodable or decodable).
 *
 * <p>No {@code cache.evictions}: Caffeine's and Micrometer's dashboards read it as entries dropped
 * by size or expiry, which happen on the servers, unseen by chash. No {@code cache.size}: the nodes
 * hold every cache's entries together.
 */
final class ChashCacheMeterBinder extends CacheMeterBinder<ShardedCache> {
  static final String LOAD_DESCRIPTION =
      "The number of times a value was loaded (the method ran on a miss): result=success when it"
          + " returned, result=failure when it threw";

  ChashCacheMeterBinder(ShardedCache cache, Iterable<Tag> tags) {
    super(cache, cache.name(), tags);
  }

  private CacheStats stats() {
    ShardedCache cache = getCache();
    return cache == null ? CacheStats.empty() : cache.stats();
  }

  private void protocol(
      MeterRegistry registry,
      String name,
      java.util.function.ToLongFunction<CacheStats> count,
      String description) {
    FunctionCounter.builder(name, getCache(), c -> count.applyAsLong(c.stats()))
        .tags(getTagsWithCacheName())
        .description(description)
        .register(registry);
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

  /** None: see the class comment; explicit evictions are {@code cache.removals}. */
  @Override
  protected Long evictionCount() {
    return null;
  }

  @Override
  protected long putCount() {
    return stats().putCount();
  }

  @Override
  protected void bindImplementationSpecificMetrics(MeterRegistry registry) {
    // Micrometer keeps the state object weakly: the cache, which its manager holds.
    // one description for both results: a registry keeps one per name
    FunctionCounter.builder("cache.load", getCache(), c -> c.stats().loadCount())
        .tags(getTagsWithCacheName())
        .tag("result", "success")
        .description(LOAD_DESCRIPTION)
        .register(registry);
    FunctionCounter.builder("cache.load", getCache(), c -> c.stats().loadFailureCount())
        .tags(getTagsWithCacheName())
        .tag("result", "failure")
        .description(LOAD_DESCRIPTION)
        .register(registry);
    FunctionCounter.builder("cache.removals", getCache(), c -> c.stats().evictionCount())
        .tags(getTagsWithCacheName())
        .description(
            "The number of entries removed explicitly (evict, and each node a clear emptied);"
                + " not expiries or size evictions")
        .register(registry);
    FunctionCounter.builder("chash.cache.refused", getCache(), c -> c.stats().refusedCount())
        .tags(getTagsWithCacheName())
        .description("Values a node refused to store or return: too large, not (de)codable")
        .register(registry);
    protocol(
        registry,
        "chash.cache.migration.hits",
        CacheStats::migrationHitCount,
        "Misses on a key's new owner that its previous owner answered, after a ring change");
    protocol(
        registry,
        "chash.cache.migration.copies",
        CacheStats::migrationCopyCount,
        "Values copied from a key's previous owner to its new one, after a ring change");
    protocol(
        registry,
        "chash.cache.leftover.deletions",
        CacheStats::leftoverDeletionCount,
        "Copies the sweep after a migration window deleted from nodes that no longer own them");
    protocol(
        registry,
        "chash.cache.fences",
        CacheStats::fenceCount,
        "Tombstones written on a key's previous owners before a write of this ring");
    protocol(
        registry,
        "chash.cache.leases",
        CacheStats::leaseCount,
        "Leases taken on a miss before a load");
    protocol(
        registry,
        "chash.cache.leases.lost",
        CacheStats::leaseLostCount,
        "Loads whose lease was gone when they filled (a write came first): value not stored");
    protocol(
        registry,
        "chash.cache.lease.waits.served",
        CacheStats::leaseWaitServedCount,
        "Sync loads that waited for another JVM's load of the key and served its fill: loads saved");
    protocol(
        registry,
        "chash.cache.lease.waits.expired",
        CacheStats::leaseWaitExpiredCount,
        "Sync loads that waited for another JVM's load of the key in vain, then loaded themselves");
    protocol(
        registry,
        "chash.cache.tombstones",
        CacheStats::tombstoneCount,
        "Evictions written as tombstones for the migration window");
    protocol(
        registry,
        "chash.cache.safety.misses",
        CacheStats::safetyMissCount,
        "Reads made misses without asking a node, to stay correct (a copy of unknown state)");
    protocol(
        registry,
        "chash.cache.near.hits",
        CacheStats::nearHitCount,
        "Hits the near cache answered in this JVM, without a node call (part of cache.gets)");
  }
}
