package io.github.chash.internal.keys;

import java.util.Objects;

/**
 * Internal: one {@code @ShardedCacheable}, {@code @ShardedCachePut} or {@code @ShardedCacheEvict}
 * as written, whether read by reflection (the aspect) or from a class file (the plugin). Attributes
 * an annotation does not have are empty or false; an empty string means "not set".
 *
 * @param kind which annotation
 * @param cache the cache name, empty to take the class's default
 * @param key the key expression, empty for all arguments
 * @param condition when to apply the annotation, empty for always
 * @param unless when not to store the result ({@code @ShardedCacheable}, {@code @ShardedCachePut})
 * @param ttl the entries' time to live ({@code @ShardedCacheable}, {@code @ShardedCachePut}), empty
 *     for the class's default or the cache's
 * @param sync one load per key and JVM ({@code @ShardedCacheable})
 * @param cacheNull whether a null result is cached ({@code @ShardedCacheable})
 * @param beforeInvocation evict before the method runs ({@code @ShardedCacheEvict})
 * @param allEntries evict the whole cache ({@code @ShardedCacheEvict})
 */
public record CacheAnnotation(
    Kind kind,
    String cache,
    String key,
    String condition,
    String unless,
    String ttl,
    boolean sync,
    boolean cacheNull,
    boolean beforeInvocation,
    boolean allEntries) {

  /** The three annotations. */
  public enum Kind {
    /** {@code @ShardedCacheable} */
    CACHEABLE("@ShardedCacheable"),
    /** {@code @ShardedCachePut} */
    PUT("@ShardedCachePut"),
    /** {@code @ShardedCacheEvict} */
    EVICT("@ShardedCacheEvict");

    private final String displayName;

    Kind(String displayName) {
      this.displayName = displayName;
    }

    /** {@return the annotation as written in source, for messages: {@code @ShardedCacheable}} */
    public String displayName() {
      return displayName;
    }
  }

  /**
   * Checks that no attribute is null.
   *
   * @param kind which annotation
   * @param cache the cache name, empty to take the class's default
   * @param key the key expression, empty for all arguments
   * @param condition when to apply the annotation, empty for always
   * @param unless when not to store the result ({@code @ShardedCacheable},
   *     {@code @ShardedCachePut})
   * @param ttl the entries' time to live ({@code @ShardedCacheable}, {@code @ShardedCachePut}),
   *     empty for the class's default or the cache's
   * @param sync one load per key and JVM ({@code @ShardedCacheable})
   * @param cacheNull whether a null result is cached ({@code @ShardedCacheable})
   * @param beforeInvocation evict before the method runs ({@code @ShardedCacheEvict})
   * @param allEntries evict the whole cache ({@code @ShardedCacheEvict})
   */
  public CacheAnnotation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(cache, "cache");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(condition, "condition");
    Objects.requireNonNull(unless, "unless");
    Objects.requireNonNull(ttl, "ttl");
  }

  /**
   * {@return a {@code @ShardedCacheable}}
   *
   * @param cache the cache name, empty to take the class's default
   * @param key the key expression, empty for all arguments
   * @param condition when to apply the annotation, empty for always
   * @param unless when not to store the result ({@code @ShardedCacheable},
   *     {@code @ShardedCachePut})
   * @param ttl the entries' time to live ({@code @ShardedCacheable}, {@code @ShardedCachePut}),
   *     empty for the class's default or the cache's
   * @param sync one load per key and JVM ({@code @ShardedCacheable})
   * @param cacheNull whether a null result is cached ({@code @ShardedCacheable})
   */
  public static CacheAnnotation cacheable(
      String cache,
      String key,
      String condition,
      String unless,
      String ttl,
      boolean sync,
      boolean cacheNull) {
    return new CacheAnnotation(
        Kind.CACHEABLE, cache, key, condition, unless, ttl, sync, cacheNull, false, false);
  }

  /**
   * {@return a {@code @ShardedCachePut}}
   *
   * @param cache the cache name, empty to take the class's default
   * @param key the key expression, empty for all arguments
   * @param condition when to apply the annotation, empty for always
   * @param unless when not to store the result ({@code @ShardedCacheable},
   *     {@code @ShardedCachePut})
   * @param ttl the entries' time to live ({@code @ShardedCacheable}, {@code @ShardedCachePut}),
   *     empty for the class's default or the cache's
   */
  public static CacheAnnotation put(
      String cache, String key, String condition, String unless, String ttl) {
    return new CacheAnnotation(
        Kind.PUT, cache, key, condition, unless, ttl, false, false, false, false);
  }

  /**
   * {@return a {@code @ShardedCacheEvict}}
   *
   * @param cache the cache name, empty to take the class's default
   * @param key the key expression, empty for all arguments
   * @param condition when to apply the annotation, empty for always
   * @param beforeInvocation evict before the method runs ({@code @ShardedCacheEvict})
   * @param allEntries evict the whole cache ({@code @ShardedCacheEvict})
   */
  public static CacheAnnotation evict(
      String cache, String key, String condition, boolean beforeInvocation, boolean allEntries) {
    return new CacheAnnotation(
        Kind.EVICT, cache, key, condition, "", "", false, false, beforeInvocation, allEntries);
  }

  /** {@return the annotation as written in source, for messages: {@code @ShardedCacheable}} */
  public String displayName() {
    return kind.displayName();
  }
}
