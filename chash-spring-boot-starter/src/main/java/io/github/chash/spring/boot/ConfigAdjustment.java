package io.github.chash.spring.boot;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What the starter's properties add to {@code chash.yaml}, applied at startup and to every change
 * {@code chash.watch} reads, so that a change of the file keeps them. One rule for conflicts: a
 * property wins over the file, as Spring Boot's external configuration wins over what is packaged.
 *
 * <ul>
 *   <li>{@code chash.caches.<name>.ttl} replaces that cache's ttl in the file (every other setting
 *       of the cache stays the file's), or adds the cache if the file lacks it;
 *   <li>then, with {@code chash.cache.create-missing}, a cache Spring's annotations use that is
 *       still missing is added with {@code chash.cache.default-ttl}.
 * </ul>
 */
final class ConfigAdjustment implements UnaryOperator<ChashConfig> {
  private final Map<String, ChashProperties.CacheSettings> caches;
  private final CacheNamesInUse missing;
  private final Duration defaultTtl;

  /**
   * @param caches {@code chash.caches.*}
   * @param missing the cache names Spring caching uses, when {@code create-missing}; else null
   * @param defaultTtl {@code chash.cache.default-ttl}
   */
  ConfigAdjustment(
      Map<String, ChashProperties.CacheSettings> caches,
      CacheNamesInUse missing,
      Duration defaultTtl) {
    this.caches = Map.copyOf(caches);
    this.missing = missing;
    this.defaultTtl = defaultTtl;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException naming the property whose value breaks a cache's rule (a ttl
   *     shorter than the file's nullTtl, a cache name with {@code :})
   */
  @Override
  public ChashConfig apply(ChashConfig config) {
    Map<String, CacheConfig> result = new LinkedHashMap<>(config.caches());
    caches.forEach(
        (name, settings) -> {
          if (settings.getTtl() == null) {
            return;
          }
          CacheConfig file = result.get(name);
          String property = "chash.caches." + name + ".ttl";
          try {
            result.put(
                name,
                file == null
                    ? new CacheConfig(name, settings.getTtl())
                    : file.withTtl(settings.getTtl()));
          } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                property + "=" + settings.getTtl() + " cannot apply: " + e.getMessage(), e);
          }
        });
    ChashConfig adjusted = withCaches(config, result);
    return missing == null ? adjusted : missing.addMissingTo(adjusted, defaultTtl);
  }

  /** {@return the names {@code chash.caches.*} configures} */
  Set<String> names() {
    return caches.keySet();
  }

  /** {@return the configuration with other caches, everything else as it was} */
  static ChashConfig withCaches(ChashConfig config, Map<String, CacheConfig> caches) {
    ChashConfig.Builder builder =
        ChashConfig.builder()
            .source(config.source())
            .ring(config.ring())
            .nodes(config.nodes())
            .failover(config.failover())
            .migration(config.migration())
            .redis(config.redis())
            .memcached(config.memcached())
            .check(config.check());
    caches.values().forEach(builder::cache);
    return builder.build();
  }
}
