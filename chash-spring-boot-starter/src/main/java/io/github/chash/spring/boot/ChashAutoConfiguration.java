package io.github.chash.spring.boot;

import io.github.chash.aspect.spring.ShardedCacheAspectConfiguration;
import io.github.chash.cache.CacheRecorder;
import io.github.chash.cache.ConfigWatch;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.spring.cache.ChashCacheManager;
import io.github.chash.spring.cache.ChashKeyGenerator;
import io.github.chash.spring.cache.JsonMapping;
import java.lang.reflect.Type;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.interceptor.KeyGenerator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * Auto-configuration of chash for Spring Boot 3.5 and 4.
 *
 * <ul>
 *   <li>A {@link ChashConfig} read from {@code chash.yaml} ({@code chash.config}, default {@code
 *       classpath:chash.yaml}) and a {@link ShardedCacheManager} built from it, closed with the
 *       context; each backs off when the application defines its own.
 *   <li>With {@code chash.watch} (an interval such as {@code 5s}), a {@link ConfigWatch} that polls
 *       the file {@code chash.config} names and moves the running manager to each valid change;
 *       stopped with the context.
 *   <li>A {@link ChashCacheManager} named {@code cacheManager}, so plain {@code @Cacheable} and its
 *       siblings route through the ring: when {@code spring.cache.type} is {@code chash} or unset
 *       and the application defines no {@link CacheManager}. It runs before Boot's cache
 *       auto-configuration (in {@code org.springframework.boot.autoconfigure.cache} on Boot 3.5,
 *       {@code org.springframework.boot.cache.autoconfigure} on Boot 4), which then backs off. The
 *       cache names Spring caching uses must be configured, or are created when {@code
 *       chash.cache.create-missing}; the startup fails otherwise, listing them.
 *   <li>A {@link CachingConfigurer} whose key generator is {@link ChashKeyGenerator}, so that keys
 *       of several arguments are routed as {@code @ShardedCacheable} routes them; unless the
 *       application has its own {@link CachingConfigurer} (whose {@code keyGenerator()} should then
 *       return a {@link ChashKeyGenerator}).
 *   <li>The {@code @ShardedCacheable} family through {@link ShardedCacheAspectConfiguration}'s
 *       advisors, unless {@code chash.aspect.proxies=false}.
 * </ul>
 */
@AutoConfiguration(
    beforeName = {
      "org.springframework.boot.autoconfigure.cache.CacheAutoConfiguration",
      "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration"
    })
@EnableConfigurationProperties(ChashProperties.class)
public class ChashAutoConfiguration {

  /** Created by Spring Boot. */
  public ChashAutoConfiguration() {}

  /**
   * {@return {@code chash.yaml}, read from {@code chash.config}; unless the application defines its
   * own configuration or manager}
   *
   * @param properties the {@code chash.*} properties
   * @param resources resolves the location of {@code chash.yaml}
   * @throws io.github.chash.config.ConfigException if the file is missing or invalid, with
   *     file:line:column
   */
  @Bean
  @ConditionalOnMissingBean({ChashConfig.class, ShardedCacheManager.class})
  public ChashConfig chashConfig(ChashProperties properties, ResourceLoader resources) {
    return ConfigResources.load(resources, properties.getConfig());
  }

  /**
   * {@return the manager of the configuration's nodes and caches, plus the caches {@code
   * chash.cache.create-missing} adds; closed with the context}
   *
   * @param config the configuration read from {@code chash.yaml}
   * @param properties the {@code chash.*} properties
   * @param beans the context's bean factory, to find the cache names in use
   * @param environment the context's environment, to resolve cache names written as placeholders
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public ShardedCacheManager shardedCacheManager(
      ChashConfig config,
      ChashProperties properties,
      ConfigurableListableBeanFactory beans,
      Environment environment) {
    XMemcachedLogging.quiet(environment, beans.getBeanClassLoader());
    // the metrics auto-configuration's recorder (timers, Observations), when Micrometer is there
    ObjectProvider<CacheRecorder> recorder = beans.getBeanProvider(CacheRecorder.class);
    return ShardedCaches.builder()
        .config(adjustment(properties, beans, environment).apply(config))
        .recorder(recorder.getIfAvailable(() -> CacheRecorder.NONE))
        .build();
  }

  /**
   * {@return what the properties add to chash.yaml: {@code chash.caches.*}, and the caches {@code
   * chash.cache.create-missing} creates}
   */
  static ConfigAdjustment adjustment(
      ChashProperties properties, ConfigurableListableBeanFactory beans, Environment environment) {
    ChashProperties.Cache cache = properties.getCache();
    CacheNamesInUse missing =
        cache.isCreateMissing()
                && beans.getBeanNamesForType(ChashCacheManager.class, true, false).length > 0
            ? CacheNamesInUse.find(beans, environment)
            : null;
    return new ConfigAdjustment(properties.getCaches(), missing, cache.getDefaultTtl());
  }

  /**
   * {@return the watch of {@code chash.yaml}, when {@code chash.watch} is set; stopped with the
   * context}
   *
   * @param manager the manager a valid change of the file reconfigures
   * @param properties the {@code chash.*} properties
   * @param resources resolves the location of {@code chash.yaml}
   * @param beans the context's bean factory, to find the cache names in use
   * @param environment the context's environment
   * @throws IllegalStateException if {@code chash.config} is not a file, or the interval is not
   *     positive
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnProperty(prefix = "chash", name = "watch")
  public ConfigWatch chashConfigWatch(
      ShardedCacheManager manager,
      ChashProperties properties,
      ResourceLoader resources,
      ConfigurableListableBeanFactory beans,
      Environment environment) {
    return ConfigResources.watch(
        manager,
        resources,
        properties.getConfig(),
        properties.getWatch(),
        adjustment(properties, beans, environment));
  }

  /**
   * {@return Spring's cache manager over the ring}
   *
   * @param manager the sharded cache manager
   * @param properties the {@code chash.*} properties
   * @param beans the context's bean factory, to find the cache names in use
   * @param environment the context's environment, to resolve cache names written as placeholders
   * @param config {@code chash.yaml}, when the application has it as a bean (the starter's, unless
   *     the application defines its own manager): its codecs decide which caches are stored as JSON
   * @throws IllegalStateException if Spring caching uses a cache the manager does not have, or a
   *     cache whose declared value type is not {@code Serializable} when there is no Jackson to
   *     store it as JSON, or a cache stored as JSON that holds several declared value types
   */
  @Bean
  @ConditionalOnMissingBean(CacheManager.class)
  @ConditionalOnProperty(
      prefix = "spring.cache",
      name = "type",
      havingValue = "chash",
      matchIfMissing = true)
  public ChashCacheManager cacheManager(
      ShardedCacheManager manager,
      ChashProperties properties,
      ConfigurableListableBeanFactory beans,
      Environment environment,
      ObjectProvider<ChashConfig> config) {
    CacheNamesInUse inUse = CacheNamesInUse.find(beans, environment);
    inUse.requireConfiguredIn(manager);
    JsonMapping json = JsonMappings.find(beans);
    // a cache chash.caches.* or create-missing adds has no codec of its own: the file's blocks hold
    Map<String, Type> jsonTypes = inUse.jsonTypes(json, ClasslessCodecs.of(config.getIfUnique()));
    return new ChashCacheManager(
        manager, properties.getCache().isAllowNullValues(), jsonTypes, json, inUse.declaredTypes());
  }

  /**
   * Chash's key generator for Spring's cache interceptor, unless the application has its own {@link
   * CachingConfigurer}. Spring allows one configurer per context, so the starter's backs off rather
   * than fail the startup. Its keys equal those of Spring's default generator, so caches of other
   * providers in the same application are not affected.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingBean(CachingConfigurer.class)
  static class Keys {
    Keys() {}

    /**
     * {@return the configurer that only sets the key generator; the cache manager, resolver and
     * error handler stay Spring's defaults}
     */
    @Bean
    CachingConfigurer chashCachingConfigurer() {
      KeyGenerator keys = new ChashKeyGenerator();
      return new CachingConfigurer() {
        @Override
        public KeyGenerator keyGenerator() {
          return keys;
        }
      };
    }
  }

  /** The {@code @ShardedCache*} advisors, unless the classes are woven by AspectJ instead. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(
      prefix = "chash.aspect",
      name = "proxies",
      havingValue = "true",
      matchIfMissing = true)
  @Import(ShardedCacheAspectConfiguration.class)
  static class Advisors {
    Advisors() {}
  }
}
