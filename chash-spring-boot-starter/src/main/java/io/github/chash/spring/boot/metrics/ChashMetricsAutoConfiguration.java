package io.github.chash.spring.boot.metrics;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.spring.boot.ChashAutoConfiguration;
import io.github.chash.spring.cache.ChashCacheManager;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ListableBeanFactory;
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
   * {@return the cache and node meters}
   *
   * @param manager the application's sharded cache manager
   * @param beans the context; the bean name of Spring's cache manager over the ring is the {@code
   *     cache.manager} tag, as Boot tags its own managers' caches ({@code chash} without one)
   */
  @Bean
  public MeterBinder chashMeterBinder(ShardedCacheManager manager, ListableBeanFactory beans) {
    String[] names = beans.getBeanNamesForType(ChashCacheManager.class, false, false);
    String tag = names.length == 1 ? managerTag(names[0]) : "chash";
    return new ChashMeterBinder(manager, tag);
  }

  private static String managerTag(String beanName) {
    if (beanName.length() > CACHE_MANAGER_SUFFIX.length()
        && beanName.toLowerCase().endsWith(CACHE_MANAGER_SUFFIX.toLowerCase())) {
      return beanName.substring(0, beanName.length() - CACHE_MANAGER_SUFFIX.length());
    }
    return beanName;
  }
}
