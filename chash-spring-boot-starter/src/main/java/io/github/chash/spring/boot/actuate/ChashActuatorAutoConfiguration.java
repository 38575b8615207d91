package io.github.chash.spring.boot.actuate;

import io.github.chash.cache.ConfigWatch;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.FailoverConfig;
import io.github.chash.membership.MembershipFollower;
import io.github.chash.spring.boot.ChashAutoConfiguration;
import io.github.chash.spring.cache.ChashCacheManager;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator support, when Spring Boot Actuator is on the class path: the {@link ChashEndpoint} and
 * the {@code chash} health contributor ({@link ChashHealth}; off with {@code
 * management.health.chash.enabled=false}). Boot 4 moved health contributors to their own module and
 * package, so each Boot line gets its own indicator class, chosen by which package is there. {@code
 * /actuator/caches} needs nothing from here: it lists the chash caches through the {@code
 * cacheManager} bean.
 */
@AutoConfiguration(after = ChashAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(ShardedCacheManager.class)
public class ChashActuatorAutoConfiguration {

  /** Created by Spring Boot. */
  public ChashActuatorAutoConfiguration() {}

  /**
   * {@return the {@code chash} endpoint}
   *
   * @param manager the application's sharded cache manager
   * @param springCaches Spring's cache manager over it, if the application has one
   * @param watch the watch of {@code chash.yaml}, if {@code chash.watch} is set
   */
  @Bean
  @ConditionalOnMissingBean
  public ChashEndpoint chashEndpoint(
      ShardedCacheManager manager,
      ObjectProvider<ChashCacheManager> springCaches,
      ObjectProvider<ConfigWatch> watch) {
    return new ChashEndpoint(manager, springCaches.getIfUnique(), watch::getIfUnique);
  }

  /**
   * {@return the endpoint's HTTP answers: 400 with the reason for a refused change}
   *
   * @param endpoint the {@code chash} endpoint
   */
  @Bean
  @ConditionalOnMissingBean
  public ChashEndpointWebExtension chashEndpointWebExtension(ChashEndpoint endpoint) {
    return new ChashEndpointWebExtension(endpoint);
  }

  /** The failure policy of the starter's manager, for the health details; null for a user's. */
  static FailoverConfig failover(ObjectProvider<ChashConfig> config) {
    ChashConfig c = config.getIfUnique();
    return c == null ? null : c.failover();
  }

  /** Boot 4: {@code org.springframework.boot.health.contributor}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  @ConditionalOnProperty(
      prefix = "management.health.chash",
      name = "enabled",
      havingValue = "true",
      matchIfMissing = true)
  static class Boot4Health {
    Boot4Health() {}

    @Bean
    @ConditionalOnMissingBean(name = "chashHealthIndicator")
    ChashHealthIndicatorBoot4 chashHealthIndicator(
        ShardedCacheManager manager,
        ObjectProvider<ChashConfig> config,
        ObjectProvider<ChashCacheManager> springCaches,
        ObjectProvider<ConfigWatch> watch,
        ObjectProvider<MembershipFollower> follower) {
      return new ChashHealthIndicatorBoot4(
          manager,
          failover(config),
          new Refusals(manager, springCaches.getIfUnique()),
          watch,
          follower);
    }
  }

  /** Boot 3.5: {@code org.springframework.boot.actuate.health}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  @ConditionalOnProperty(
      prefix = "management.health.chash",
      name = "enabled",
      havingValue = "true",
      matchIfMissing = true)
  static class Boot3Health {
    Boot3Health() {}

    @Bean
    @ConditionalOnMissingBean(name = "chashHealthIndicator")
    ChashHealthIndicatorBoot3 chashHealthIndicator(
        ShardedCacheManager manager,
        ObjectProvider<ChashConfig> config,
        ObjectProvider<ChashCacheManager> springCaches,
        ObjectProvider<ConfigWatch> watch,
        ObjectProvider<MembershipFollower> follower) {
      return new ChashHealthIndicatorBoot3(
          manager,
          failover(config),
          new Refusals(manager, springCaches.getIfUnique()),
          watch,
          follower);
    }
  }
}
