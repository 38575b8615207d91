package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.MigrationConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.ring.Node;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A JVM started on a configuration that names the ring it replaces ({@code migration.replaces})
 * starts as a JVM that changed from that ring: within the rollout it keeps that ring as a prior, so
 * it reads and fences the owners the JVMs not yet replaced write to. FleetProcessesScenario's
 * rolling restart checks what it is for, across processes on real servers.
 */
class RolloutStartTest {
  private static final Duration WINDOW = Duration.ofMinutes(5);
  private RingCacheManager manager;

  @AfterEach
  void stop() {
    if (manager != null) {
      manager.close();
    }
  }

  private static ChashConfig config(Instant since, String... replaced) {
    List<NodeConfig> nodes = List.of("a", "b", "c", "d").stream().map(NodeConfig::local).toList();
    MigrationConfig.Replaces replaces =
        new MigrationConfig.Replaces(
            since, List.of(replaced).stream().map(NodeConfig::local).toList());
    return ChashConfig.builder()
        .nodes(nodes)
        .migration(new MigrationConfig(WINDOW, replaces))
        .cache(new CacheConfig("users", Duration.ofMinutes(30)))
        .build();
  }

  private RingCacheManager start(ChashConfig config) {
    manager =
        (RingCacheManager) ShardedCaches.builder().config(config).scheduleProbes(false).build();
    return manager;
  }

  private List<List<String>> priorNodes() {
    return manager.routing().priors.stream()
        .map(p -> p.ring.nodes().stream().map(Node::id).toList())
        .toList();
  }

  @Test
  void startedWithinTheRollout_runsItsOwnRingWithTheReplacedOneAsAPrior() {
    start(config(Instant.now().minusSeconds(60), "a", "b", "c"));

    assertThat(manager.ring().nodes().stream().map(Node::id)).containsExactly("a", "b", "c", "d");
    assertThat(priorNodes()).containsExactly(List.of("a", "b", "c"));
  }

  @Test
  void replacedRingWithANodeTheConfigurationRemoved_reachesThatNodeToo() {
    start(config(Instant.now(), "a", "b", "c", "d", "e"));

    assertThat(priorNodes()).containsExactly(List.of("a", "b", "c", "d", "e"));
  }

  @Test
  void startedAfterTheRollout_startsOnItsOwnRingAlone() {
    start(config(Instant.now().minus(WINDOW).minusSeconds(1), "a", "b", "c"));

    assertThat(manager.ring().nodes().stream().map(Node::id)).containsExactly("a", "b", "c", "d");
    assertThat(priorNodes()).isEmpty();
  }
}
