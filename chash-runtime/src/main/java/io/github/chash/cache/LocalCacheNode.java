package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Policy.VarExpiration;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A node backed by one Caffeine cache: bounded by entry count, each entry expiring after the TTL it
 * was written with, values kept by reference.
 */
final class LocalCacheNode implements CacheNode {
  // Caffeine caps expiry at ~150 years; this is "never" and keeps its arithmetic from overflowing.
  private static final long NO_EXPIRY_NANOS = Long.MAX_VALUE >>> 1;

  private final String id;
  private final Cache<String, Object> cache;
  private final VarExpiration<String, Object> expiration;

  LocalCacheNode(String id, long maximumSize, Ticker ticker) {
    if (maximumSize <= 0) {
      throw new IllegalArgumentException(
          "maximumSize of node \"" + id + "\" must be positive; was " + maximumSize);
    }
    this.id = id;
    this.cache =
        Caffeine.newBuilder()
            .maximumSize(maximumSize)
            .expireAfter(new WrittenTtl())
            .ticker(ticker)
            .build();
    this.expiration = cache.policy().expireVariably().orElseThrow();
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Object get(String key, ValueType type) {
    return cache.getIfPresent(key);
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    long nanos = ttl == null ? NO_EXPIRY_NANOS : ttl.toNanos();
    expiration.put(key, value, nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void evict(String key) {
    cache.invalidate(key);
  }

  @Override
  public void clear() {
    cache.invalidateAll();
  }

  @Override
  public void ping() {
    // In-process: always answers.
  }

  @Override
  public long estimatedSize() {
    return cache.estimatedSize();
  }

  @Override
  public void close() {
    cache.invalidateAll();
  }

  /** Runs Caffeine's pending maintenance (eviction), so tests see the size bound applied. */
  void cleanUp() {
    cache.cleanUp();
  }

  @Override
  public String toString() {
    return "LocalCacheNode{id=" + id + "}";
  }

  /**
   * Every write goes through {@link VarExpiration#put} with its cache's TTL; reads keep the
   * remaining time.
   */
  private static final class WrittenTtl implements Expiry<String, Object> {
    @Override
    public long expireAfterCreate(String key, Object value, long currentTime) {
      return NO_EXPIRY_NANOS;
    }

    @Override
    public long expireAfterUpdate(
        String key, Object value, long currentTime, long currentDuration) {
      return currentDuration;
    }

    @Override
    public long expireAfterRead(String key, Object value, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }
}
