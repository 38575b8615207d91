package io.github.chash.spring.boot.actuate;

import io.github.chash.cache.ConfigWatch;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.FailoverConfig;
import io.github.chash.membership.MembershipFollower;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/** {@link ChashHealth} as a Spring Boot 3.5 health indicator ({@code spring-boot-actuator}). */
final class ChashHealthIndicatorBoot3 implements HealthIndicator {
  private final ShardedCacheManager manager;
  private final FailoverConfig failover;
  private final Refusals refusals;
  private final ObjectProvider<ConfigWatch> watch;
  private final ObjectProvider<MembershipFollower> follower;

  ChashHealthIndicatorBoot3(
      ShardedCacheManager manager,
      FailoverConfig failover,
      Refusals refusals,
      ObjectProvider<ConfigWatch> watch,
      ObjectProvider<MembershipFollower> follower) {
    this.manager = manager;
    this.failover = failover;
    this.refusals = refusals;
    this.watch = watch;
    this.follower = follower;
  }

  @Override
  public Health health() {
    MembershipFollower following = follower.getIfUnique();
    ChashHealth health =
        ChashHealth.of(
            manager,
            failover,
            refusals.byCache(),
            watch.getIfUnique(),
            following == null ? null : following.status());
    // UP without a description: Boot's aggregate takes the description of the UP status it picks
    Health.Builder builder =
        health.up()
            ? Health.up()
            : Health.status(new Status(ChashHealth.DEGRADED, health.description()));
    return builder.withDetails(health.details()).build();
  }
}
