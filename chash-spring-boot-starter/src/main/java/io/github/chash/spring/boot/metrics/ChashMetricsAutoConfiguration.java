package io.github.chash.spring.boot.metrics;

import io.github.chash.cache.CacheRecorder;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.membership.MembershipFollower;
import io.github.chash.micrometer.ChashMeterBinder;
import io.github.chash.micrometer.MembershipMeterBinder;
import io.github.chash.micrometer.MicrometerCacheRecorder;
import io.github.chash.spring.boot.ChashAutoConfiguration;
import io.github.chash.spring.cache.ChashCacheManager;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters of the context's {@link ShardedCacheManager}, when Micrometer is on the class
 * path: a {@link MeterBinder} bean, which Spring Boot (3.5 and 4 alike) binds to every meter
 * registry. See {@link ChashMeterBinder} for the meters; and a {@link MicrometerCacheRecorder},
 * which {@link ChashAutoConfiguration} gives the manager it builds, for the timers and
 * Observations.
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

  /**
   * {@return the ring epoch gauges of every {@link MembershipFollower} in the context (see {@link
   * MembershipMeterBinder}); only when the application has one}
   *
   * @param followers the context's membership followers
   */
  @Bean
  @ConditionalOnBean(MembershipFollower.class)
  public MeterBinder chashMembershipMeterBinder(ObjectProvider<MembershipFollower> followers) {
    return registry ->
        followers.orderedStream().forEach(f -> new MembershipMeterBinder(f).bindTo(registry));
  }

  /**
   * {@return the recorder of timers (in the context's meter registry) and Observations (in its
   * observation registry, when there is one), given to the manager {@link ChashAutoConfiguration}
   * builds}
   *
   * @param meters the context's meter registry, if any
   * @param observations the context's observation registry, if any
   */
  @Bean
  public CacheRecorder chashCacheRecorder(
      ObjectProvider<MeterRegistry> meters, ObjectProvider<ObservationRegistry> observations) {
    MeterRegistry registry = meters.getIfAvailable();
    ObservationRegistry observed = observations.getIfAvailable(() -> ObservationRegistry.NOOP);
    if (registry == null && observed.isNoop()) {
      return CacheRecorder.NONE;
    }
    return new MicrometerCacheRecorder(registry, observed, Tags.empty());
  }

  private static String managerTag(String beanName) {
    if (beanName.length() > CACHE_MANAGER_SUFFIX.length()
        && beanName.toLowerCase().endsWith(CACHE_MANAGER_SUFFIX.toLowerCase())) {
      return beanName.substring(0, beanName.length() - CACHE_MANAGER_SUFFIX.length());
    }
    return beanName;
  }
}
