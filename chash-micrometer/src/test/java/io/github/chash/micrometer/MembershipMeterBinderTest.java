package io.github.chash.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import io.github.chash.membership.HandSource;
import io.github.chash.membership.MembershipFollower;
import io.github.chash.membership.RingUpdate;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ring epoch gauges a dashboard reads to see which pods are behind a ring change. */
class MembershipMeterBinderTest {
  private static final ChashConfig BASE =
      ChashConfigs.parse("nodes:\n  - { id: a }\n  - { id: b }\ncaches:\n  users: {}\n", "base");

  private final ShardedCacheManager manager = ShardedCaches.create(BASE);
  private final HandSource source = new HandSource();
  private final MembershipFollower follower = MembershipFollower.follow(manager, BASE, source);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @AfterEach
  void close() {
    follower.close();
    manager.close();
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }

  private static RingUpdate nodes(long epoch, String... ids) {
    return RingUpdate.ofNodes(
        epoch, "r" + epoch, Arrays.stream(ids).map(NodeConfig::local).toList());
  }

  @Test
  void epochsBehindAndReachability_followTheFollowersStatus() {
    new MembershipMeterBinder(follower).bindTo(registry);
    // nothing applied yet: no epoch to show, and the JVM is behind until it runs one
    assertThat(gauge(MembershipMeterBinder.EPOCH)).isNaN();
    assertThat(gauge(MembershipMeterBinder.LATEST)).isNaN();
    assertThat(gauge(MembershipMeterBinder.BEHIND)).isEqualTo(1);
    assertThat(gauge(MembershipMeterBinder.REACHABLE)).isZero();

    source.listener.connected();
    source.listener.update(nodes(7, "a", "b", "c"));
    assertThat(gauge(MembershipMeterBinder.EPOCH)).isEqualTo(7);
    assertThat(gauge(MembershipMeterBinder.LATEST)).isEqualTo(7);
    assertThat(gauge(MembershipMeterBinder.BEHIND)).isZero();
    assertThat(gauge(MembershipMeterBinder.REACHABLE)).isEqualTo(1);

    // a ring this JVM cannot run: it keeps epoch 7 and says it is behind
    source.listener.invalid(8, "nodes[0].id: bad");
    source.listener.unreachable("session expired");
    assertThat(gauge(MembershipMeterBinder.EPOCH)).isEqualTo(7);
    assertThat(gauge(MembershipMeterBinder.LATEST)).isEqualTo(8);
    assertThat(gauge(MembershipMeterBinder.BEHIND)).isEqualTo(1);
    assertThat(gauge(MembershipMeterBinder.REACHABLE)).isZero();
  }
}
