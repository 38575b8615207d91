package io.github.chash.spring.boot;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.ChashConfig;
import io.github.chash.membership.MembershipFollower;
import io.github.chash.membership.MembershipSource;
import io.github.chash.spring.boot.actuate.ChashActuatorAutoConfiguration;
import io.github.chash.spring.boot.metrics.ChashMetricsAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * With {@code chash.membership.source} set, a {@link MembershipFollower} that moves the starter's
 * {@link ShardedCacheManager} to each newer state of that source (a znode, an etcd key or prefix, a
 * Service's EndpointSlices), closed, with its source, when the context closes. Each source is built
 * only when its module is on the class path; the modules are optional dependencies of the starter.
 *
 * <p>It runs before the metrics and Actuator auto-configurations, so that the follower's gauges
 * ({@code chash.ring.epoch} and the rest) and its health details find it.
 */
@AutoConfiguration(
    after = ChashAutoConfiguration.class,
    before = {ChashMetricsAutoConfiguration.class, ChashActuatorAutoConfiguration.class})
@ConditionalOnProperty(prefix = "chash.membership", name = "source")
@ConditionalOnBean(ShardedCacheManager.class)
@EnableConfigurationProperties(MembershipProperties.class)
public class ChashMembershipAutoConfiguration {
  private static final String SOURCE = "chash.membership.source";

  /** Created by Spring Boot. */
  public ChashMembershipAutoConfiguration() {}

  /**
   * {@return the follower of the configured source, started; closed with the context}
   *
   * @param manager the manager the source's states move
   * @param config {@code chash.yaml}: the starter's, which the manager was built from
   * @param membership the {@code chash.membership.*} properties
   * @param properties the {@code chash.*} properties, whose per-cache settings a whole
   *     configuration from the source keeps, as a watched file's
   * @param factories the sources whose modules are on the class path
   * @param beans the context's bean factory, to find the cache names in use
   * @param environment the context's environment
   * @throws InvalidConfigurationPropertyValueException naming the property that is missing or wrong
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public MembershipFollower chashMembershipFollower(
      ShardedCacheManager manager,
      ObjectProvider<ChashConfig> config,
      MembershipProperties membership,
      ChashProperties properties,
      ObjectProvider<MembershipSourceFactory> factories,
      ConfigurableListableBeanFactory beans,
      Environment environment) {
    MembershipProperties.Source kind = membership.getSource();
    if (properties.getWatch() != null) {
      // each would move the ring to its own node list, and undo the other's last change
      throw new InvalidConfigurationPropertyValueException(
          SOURCE,
          kind,
          "chash.watch is set too; the ring follows either a watched chash.yaml or a membership"
              + " source: unset one of them");
    }
    ChashConfig file = config.getIfUnique();
    if (file == null) {
      throw new InvalidConfigurationPropertyValueException(
          SOURCE,
          kind,
          "the application defines its own ShardedCacheManager, whose configuration the starter"
              + " does not know: build the MembershipFollower as a bean of its own");
    }
    MembershipSourceFactory factory =
        factories.orderedStream().filter(f -> f.kind() == kind).findFirst().orElse(null);
    if (factory == null) {
      throw new InvalidConfigurationPropertyValueException(
          SOURCE,
          kind,
          "needs io.github.chash:chash-"
              + kind.name().toLowerCase(java.util.Locale.ROOT)
              + " on the class path");
    }
    ConfigAdjustment adjustment = ChashAutoConfiguration.adjustment(properties, beans, environment);
    MembershipSource source = factory.create();
    return MembershipFollower.follow(manager, adjustment.apply(file), source, adjustment);
  }

  /** {@code chash-zookeeper} is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.github.chash.zookeeper.ZooKeeperSource")
  static class ZooKeeper {
    ZooKeeper() {}

    @Bean
    MembershipSourceFactory chashZooKeeperSource(MembershipProperties membership) {
      return new ZooKeeperSources(membership.getZookeeper());
    }
  }

  /** {@code chash-etcd} is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.github.chash.etcd.EtcdSource")
  static class Etcd {
    Etcd() {}

    @Bean
    MembershipSourceFactory chashEtcdSource(MembershipProperties membership) {
      return new EtcdSources(membership.getEtcd());
    }
  }

  /** {@code chash-kubernetes} is on the class path. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.github.chash.kubernetes.KubernetesSource")
  static class Kubernetes {
    Kubernetes() {}

    @Bean
    MembershipSourceFactory chashKubernetesSource(
        MembershipProperties membership, ObjectProvider<KubernetesClient> clients) {
      return new KubernetesSources(membership.getKubernetes(), clients.getIfUnique());
    }
  }
}
