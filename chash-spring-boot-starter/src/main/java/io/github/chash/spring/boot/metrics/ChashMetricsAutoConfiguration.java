package io.github.chash.spring.boot.metrics;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.spring.boot.ChashAutoConfiguration;
import io.github.chash.spring.cache.ChashCacheManager;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters of the context's {@link ShardedCacheManager}, when Micrometer is on the class
 * path: a {@link MeterBinder} bean, which Spring Boot (3.5 and 4 alike) binds to every meter
 * registry. See {@link ChashMeterBinder} for the meters.
 */
@AutoConfiguration(after = ChashAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(ShardedCacheManager.class)
public class ChashMetricsAutoConfiguration {
  /** Boot's cache metrics strip this suffix from a cache manager's bean name, as done here. */
  private static final String CACHE_MANAGER_SUFFIX = "cacheManager";

  /** Created by Spring Boot. */
  public ChashMetricsAutoConfiguration() {}

  /**
   * The cache and node meters.
   *
   * @param springCaches Spring's cache manager over the ring, if the context has one; its bean name
   *     is the {@code cache.manager} tag (else {@code chash})
   */
  @Bean
  public MeterBinder chashMeterBinder(
      ShardedCacheManager manager,
      ObjectProvider<ChashCacheManager> springCaches,
      ListableBeanFactory beans) {
    ChashCacheManager spring = springCaches.getIfUnique();
    String[] names = beans.getBeanNamesForType(ChashCacheManager.class, false, false);
    String tag = spring != null && names.length == 1 ? managerTag(names[0]) : "chash";
    return new ChashMeterBinder(manager, spring, tag);
  }

  private static String managerTag(String beanName) {
    if (beanName.length() > CACHE_MANAGER_SUFFIX.length()
        && beanName.toLowerCase().endsWith(CACHE_MANAGER_SUFFIX.toLowerCase())) {
      return beanName.substring(0, beanName.length() - CACHE_MANAGER_SUFFIX.length());
    }
    return beanName;
  }
}
