package io.github.chash.spring.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.redis.RedisServerProcess;
import io.github.chash.ring.Node;
import io.github.chash.spring.boot.ChashAutoConfiguration;
import io.github.chash.spring.boot.metrics.ChashMetricsAutoConfiguration;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A real Redis node dies: the health contributor turns DEGRADED naming it and why, the node meters
 * and the endpoint show it ejected, and the cache keeps answering from the local node.
 */
class RedisEjectionIT {
  @TempDir Path dir;

  @Test
  void killedRedisNode_isReportedEjectedWhileTheCacheServes() throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      Path yaml = dir.resolve("chash.yaml");
      Files.writeString(
          yaml,
          "nodes:\n"
              + "  - id: local\n"
              + "  - id: remote\n"
              + "    type: redis\n"
              + "    uri: "
              + redis.uri()
              + "\n"
              + "caches:\n"
              + "  users: {}\n"
              + "failover: { failureLimit: 2, retryAfter: 1h, timeout: 200ms }\n");
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  ChashAutoConfiguration.class,
                  ChashMetricsAutoConfiguration.class,
                  ChashActuatorAutoConfiguration.class))
          .withPropertyValues("chash.config=" + yaml.toUri())
          .run(
              context -> {
                ShardedCacheManager manager = context.getBean(ShardedCacheManager.class);
                HealthIndicator health =
                    context.getBean("chashHealthIndicator", HealthIndicator.class);
                SimpleMeterRegistry meters = new SimpleMeterRegistry();
                context.getBean(MeterBinder.class).bindTo(meters);
                assertThat(health.health().getStatus().getCode()).isEqualTo("UP");

                redis.kill();
                InterceptedCache users = InterceptedCache.of(manager.cache("users"));
                String remoteKey = keyOwnedBy(manager, "remote");
                for (int i = 0; i < 10 && manager.liveRing().size() == 2; i++) {
                  assertThat(users.getIfPresent(remoteKey, ValueType.OBJECT)).isNull();
                }
                assertThat(manager.liveRing().nodes())
                    .extracting(Node::id)
                    .containsExactly("local");

                Health degraded = health.health();
                assertThat(degraded.getStatus().getCode()).isEqualTo("DEGRADED");
                assertThat(degraded.getStatus().getDescription()).isEqualTo("1 of 2 nodes ejected");
                assertThat(degraded.getDetails())
                    .containsEntry("nodes", Map.of("local", "live", "remote", "ejected"));
                @SuppressWarnings("unchecked")
                Map<String, Map<String, Object>> ejected =
                    (Map<String, Map<String, Object>>) degraded.getDetails().get("ejected");
                assertThat(ejected).containsOnlyKeys("remote");
                assertThat((String) ejected.get("remote").get("reason"))
                    .startsWith("failed 2 operations in a row (failover.failureLimit)");
                assertThat((Long) ejected.get("remote").get("errors")).isGreaterThanOrEqualTo(2);
                assertThat(ejected.get("remote")).containsEntry("ejections", 1L);

                assertThat(meters.get("chash.node.live").tag("node", "remote").gauge().value())
                    .isZero();
                assertThat(meters.get("chash.node.live").tag("node", "local").gauge().value())
                    .isEqualTo(1);
                assertThat(
                        meters
                            .get("chash.node.ejections")
                            .tag("node", "remote")
                            .functionCounter()
                            .count())
                    .isEqualTo(1);
                assertThat(
                        meters
                            .get("chash.node.errors")
                            .tag("node", "remote")
                            .functionCounter()
                            .count())
                    .isGreaterThanOrEqualTo(2);

                ChashEndpoint.RingState ring = context.getBean(ChashEndpoint.class).ring();
                assertThat(ring.nodes())
                    .extracting(
                        ChashEndpoint.NodeState::id,
                        ChashEndpoint.NodeState::state,
                        ChashEndpoint.NodeState::liveShare)
                    .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("local", "live", 1.0),
                        org.assertj.core.groups.Tuple.tuple("remote", "ejected", 0.0));

                // the remote node's keys are served by the local one now
                users.put(remoteKey, "kept");
                assertThat(users.getIfPresent(remoteKey, ValueType.OBJECT)).isEqualTo("kept");
              });
    }
  }

  private static String keyOwnedBy(ShardedCacheManager manager, String node) {
    for (int i = 0; i < 10_000; i++) {
      String key = "users:" + i;
      if (manager.ring().locate(key).id().equals(node)) {
        return key;
      }
    }
    throw new AssertionError("no key of 10,000 is owned by " + node);
  }
}
