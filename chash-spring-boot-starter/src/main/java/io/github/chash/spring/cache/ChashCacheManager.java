package io.github.chash.spring.cache;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;

/**
 * Spring's {@link CacheManager} over a {@link ShardedCacheManager}: plain {@code @Cacheable},
 * {@code @CachePut} and {@code @CacheEvict} (with {@code condition}, {@code unless}, {@code sync},
 * {@code allEntries}, {@code @Caching}, {@code @CacheConfig}) route through the ring. The Spring
 * Boot starter declares one as the {@code cacheManager} bean; a plain Spring application declares
 * it itself, with chash's key generator (which the starter registers too):
 *
 * <pre>{@code
 * @Configuration
 * @EnableCaching
 * class CachingSetup implements CachingConfigurer {
 *   @Bean
 *   CacheManager cacheManager(ShardedCacheManager caches) {
 *     return new ChashCacheManager(caches, true);
 *   }
 *
 *   @Override
 *   public KeyGenerator keyGenerator() {
 *     return new ChashKeyGenerator();
 *   }
 * }
 * }</pre>
 *
 * <p>Its caches are the manager's configured ones ({@code chash.yaml}'s {@code caches:}), each a
 * {@link ChashCache}; {@link #getCache} answers {@code null} for any other name, as Spring's
 * contract says (Spring then fails the call with "Cannot find cache named ..."; the starter checks
 * the names the application's annotations use at startup instead).
 *
 * <p>Keys agree with the {@code @ShardedCache*} annotations: a key object is routed by chash's
 * canonical key rules, and the key {@link ChashKeyGenerator} makes of several arguments as those
 * arguments, the way a {@code @ShardedCacheable} without a key expression routes them; so the same
 * key lands on the same node through either family and they share entries. A key of several
 * arguments from Spring's default {@code SimpleKeyGenerator} is refused at the call, saying how to
 * register chash's. Thread-safe.
 */
public final class ChashCacheManager implements CacheManager {
  private static final Log LOG = LogFactory.getLog(ChashCacheManager.class);

  private final ShardedCacheManager manager;
  private final Map<String, ChashCache> caches;

  /**
   * Creates the Spring view of every cache of the manager.
   *
   * @param manager the manager; its lifecycle stays with the caller
   * @param allowNullValues whether {@code null} results are cached (Spring's {@code
   *     allowNullValues}, {@code true} in Spring's own cache managers)
   */
  public ChashCacheManager(ShardedCacheManager manager, boolean allowNullValues) {
    this(manager, allowNullValues, Map.of(), null);
  }

  /**
   * Creates the Spring view of every cache of the manager, some of them stored as JSON: their
   * values are written by {@code json} and read back as the cache's declared type (see {@link
   * ChashCache}). The Spring Boot starter chooses them: the caches whose methods declare a value
   * type JDK serialization cannot write.
   *
   * @param manager the manager; its lifecycle stays with the caller
   * @param allowNullValues whether {@code null} results are cached
   * @param jsonTypes cache name to the type its values are read as, for the caches stored as JSON
   * @param json writes and reads their JSON; may be null when {@code jsonTypes} is empty
   * @throws IllegalArgumentException if {@code jsonTypes} names a cache the manager does not have,
   *     or is not empty while {@code json} is null
   */
  public ChashCacheManager(
      ShardedCacheManager manager,
      boolean allowNullValues,
      Map<String, ? extends Type> jsonTypes,
      JsonMapping json) {
    this(manager, allowNullValues, jsonTypes, json, Map.of());
  }

  /**
   * Creates the Spring view of every cache of the manager, some of them stored as JSON, each read
   * as the one value type its methods declare: a value read that is not of that type's class
   * (written by another client, or read as a {@code Map} by a codec that writes no class name) is a
   * miss, counted in {@link ChashCache#refusedCount()}, never returned to the call.
   *
   * @param manager the manager; its lifecycle stays with the caller
   * @param allowNullValues whether {@code null} results are cached
   * @param jsonTypes cache name to the type its values are read as, for the caches stored as JSON
   * @param json writes and reads their JSON; may be null when {@code jsonTypes} is empty
   * @param valueTypes cache name to the one value type its methods declare, for any cache; the
   *     others read any value
   * @throws IllegalArgumentException if {@code jsonTypes} names a cache the manager does not have,
   *     or is not empty while {@code json} is null
   */
  public ChashCacheManager(
      ShardedCacheManager manager,
      boolean allowNullValues,
      Map<String, ? extends Type> jsonTypes,
      JsonMapping json,
      Map<String, ? extends Type> valueTypes) {
    this.manager = Objects.requireNonNull(manager, "manager");
    if (!jsonTypes.isEmpty() && json == null) {
      throw new IllegalArgumentException(
          "caches " + jsonTypes.keySet() + " are stored as json but no JsonMapping was given");
    }
    for (String name : jsonTypes.keySet()) {
      if (!manager.cacheNames().contains(name)) {
        throw new IllegalArgumentException(
            "no cache \"" + name + "\" to store as json; caches are " + manager.cacheNames());
      }
    }
    Map<String, ChashCache> byName = new LinkedHashMap<>();
    for (String name : manager.cacheNames()) {
      Type type = jsonTypes.get(name);
      ChashCache.Json form = type == null ? null : new ChashCache.Json(json, ValueType.of(type));
      byName.put(
          name,
          new ChashCache(
              InterceptedCache.of(manager.cache(name)),
              allowNullValues,
              form,
              valueTypes.get(name)));
    }
    this.caches = Collections.unmodifiableMap(byName);
  }

  /** Returns the named cache, or {@code null} if the manager has no such cache. */
  @Override
  public Cache getCache(String name) {
    ChashCache cache = caches.get(name);
    if (cache == null && LOG.isDebugEnabled()) {
      LOG.debug("no chash cache \"" + name + "\"; configured caches are " + caches.keySet());
    }
    return cache;
  }

  /** The configured cache names, in configuration order. */
  @Override
  public Collection<String> getCacheNames() {
    return caches.keySet();
  }

  /**
   * {@return per cache, the values its Spring view refused ({@link ChashCache#refusedCount()}): for
   * the caches stored as JSON, and for any other once it read a value of another class than its
   * declared type}
   */
  public Map<String, Long> jsonRefusals() {
    Map<String, Long> counts = new LinkedHashMap<>();
    caches.forEach(
        (name, cache) -> {
          if (cache.jsonType() != null || cache.refusedCount() > 0) {
            counts.put(name, cache.refusedCount());
          }
        });
    return counts;
  }

  /** {@return the manager whose caches these are} */
  public ShardedCacheManager shardedCacheManager() {
    return manager;
  }

  @Override
  public String toString() {
    return "ChashCacheManager{caches=" + caches.keySet() + "}";
  }
}
