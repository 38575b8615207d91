package io.github.chash.spring.cache;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.internal.cache.InterceptedCache;
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
    this.manager = Objects.requireNonNull(manager, "manager");
    Map<String, ChashCache> byName = new LinkedHashMap<>();
    for (String name : manager.cacheNames()) {
      byName.put(name, new ChashCache(InterceptedCache.of(manager.cache(name)), allowNullValues));
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

  /** {@return the manager whose caches these are} */
  public ShardedCacheManager shardedCacheManager() {
    return manager;
  }

  @Override
  public String toString() {
    return "ChashCacheManager{caches=" + caches.keySet() + "}";
  }
}
