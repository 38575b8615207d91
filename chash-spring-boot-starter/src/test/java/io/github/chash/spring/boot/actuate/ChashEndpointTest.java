package io.github.chash.spring.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.NodeConfig;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.RingSettings;
import io.github.chash.spring.boot.ChashAutoConfiguration;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The chash endpoint and the health contributor on a ring whose nodes are all live. */
class ChashEndpointTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  ChashAutoConfiguration.class, ChashActuatorAutoConfiguration.class));

  @Test
  void ring_showsWeightsExactSharesAndStates() {
    try (ShardedCacheManager manager =
        ShardedCaches.builder()
            .ring(RingSettings.defaults())
            .node(CacheNodes.local("light", 10), 1)
            .node(CacheNodes.local("heavy", 10), 3)
            .cache("users", Duration.ofMinutes(10))
            .build()) {
      ChashEndpoint.RingState state = new ChashEndpoint(manager).ring();
      assertThat(state.algorithm()).isEqualTo("ring");
      assertThat(state.hash()).isEqualTo("xxh3");
      Map<String, Double> ownership = manager.ring().ownership();
      assertThat(state.nodes())
          .extracting(ChashEndpoint.NodeState::id)
          .containsExactly("heavy", "light");
      for (ChashEndpoint.NodeState node : state.nodes()) {
        assertThat(node.share()).isEqualTo(ownership.get(node.id()));
        assertThat(node.liveShare()).isEqualTo(node.share());
        assertThat(node.state()).isEqualTo("live");
      }
      assertThat(state.nodes().get(0).weight()).isEqualTo(3);
      assertThat(state.nodes().get(0).share()).isCloseTo(0.75, within(0.05));
      assertThat(state.caches())
          .singleElement()
          .satisfies(c -> assertThat(c.ttl()).isEqualTo("PT10M"));
    }
  }

  @Test
  void change_drainsANodeAndReadmitsIt() {
    try (ShardedCacheManager manager =
        ShardedCaches.builder()
            .node(NodeConfig.local("a"))
            .node(NodeConfig.local("b"))
            .node(NodeConfig.local("c"))
            .cache("users", Duration.ofMinutes(10))
            .build()) {
      ChashEndpoint endpoint = new ChashEndpoint(manager);
      var cache = InterceptedCache.of(manager.cache("users"));
      for (int i = 0; i < 300; i++) {
        cache.put(cache.routingKey(i, "test"), "v" + i);
      }

      ChashEndpoint.RingState drained = endpoint.change("b", "drain");

      assertThat(drained.nodes()).extracting(ChashEndpoint.NodeState::id).containsExactly("a", "c");
      assertThat(drained.drained()).as("drained nodes stay listed").containsExactly("b");
      for (int i = 0; i < 300; i++) {
        // b's keys are still served, from b, during the migration window
        assertThat(cache.getIfPresent(cache.routingKey(i, "test"), ValueType.OBJECT))
            .isEqualTo("v" + i);
      }
      ChashEndpoint.RingState readmitted = endpoint.change("b", "readmit");
      assertThat(readmitted.nodes())
          .extracting(ChashEndpoint.NodeState::id)
          .containsExactly("a", "b", "c");
      assertThat(readmitted.drained()).isEmpty();
      // over HTTP, a refused change is a 400 with its reason
      ChashEndpointWebExtension web = new ChashEndpointWebExtension(endpoint);
      var refused = web.change("zz", "drain");
      assertThat(refused.getStatus()).isEqualTo(400);
      assertThat(refused.getBody().toString()).contains("unknown node \"zz\"");
      assertThat(web.change("b", "drain").getStatus()).isEqualTo(200);
      assertThat(web.change("b", "readmit").getStatus()).isEqualTo(200);
      assertThatThrownBy(() -> endpoint.change("b", "readmit"))
          .hasMessage("node \"b\" is not drained; drained nodes are []");
      assertThatThrownBy(() -> endpoint.change(null, "drain"))
          .hasMessageStartingWith("missing \"node\": the body must be");
      assertThatThrownBy(() -> endpoint.change("a", null))
          .hasMessageStartingWith("missing \"action\": the body must be");
      assertThatThrownBy(() -> endpoint.change("zz", "drain"))
          .hasMessageStartingWith("unknown node \"zz\"");
      assertThatThrownBy(() -> endpoint.change("a", "explode"))
          .hasMessage("action must be drain or readmit; was \"explode\"");
    }
  }

  @Test
  void health_isUpWithEveryNodeLive() {
    runner.run(
        context -> {
          assertThat(context).hasSingleBean(ChashEndpoint.class);
          HealthIndicator health = context.getBean("chashHealthIndicator", HealthIndicator.class);
          assertThat(health.health().getStatus()).isEqualTo(Status.UP);
          assertThat(health.health().getStatus().getDescription()).isEmpty();
          assertThat(health.health().getDetails())
              .containsEntry(
                  "nodes", Map.of("shard-a", "live", "shard-b", "live", "shard-c", "live"))
              .doesNotContainKey("ejected");
        });
  }

  @Test
  void health_canBeSwitchedOff() {
    runner
        .withPropertyValues("management.health.chash.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean("chashHealthIndicator"));
  }
}
