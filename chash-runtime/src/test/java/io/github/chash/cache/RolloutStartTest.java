package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.MigrationConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.membership.HandSource;
import io.github.chash.membership.MembershipFollower;
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
    return config(List.of(ring(since, replaced)));
  }

  private static MigrationConfig.Replaces ring(Instant since, String... nodes) {
    return new MigrationConfig.Replaces(
        since, List.of(nodes).stream().map(NodeConfig::local).toList());
  }

  private static ChashConfig config(List<MigrationConfig.Replaces> newestFirst) {
    List<NodeConfig> nodes = List.of("a", "b", "c", "d").stream().map(NodeConfig::local).toList();
    return ChashConfig.builder()
        .nodes(nodes)
        .migration(new MigrationConfig(WINDOW, newestFirst))
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

  /** The WARNING lines the manager's membership logs while {@code action} runs. */
  private static List<String> warningsWhile(Runnable action) {
    java.util.logging.Logger logger =
        java.util.logging.Logger.getLogger(Membership.class.getName());
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Handler handler =
        new java.util.logging.Handler() {
          @Override
          public void publish(java.util.logging.LogRecord record) {
            if (record.getLevel() == java.util.logging.Level.WARNING) {
              warnings.add(record.getMessage());
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(handler);
    try {
      action.run();
    } finally {
      logger.removeHandler(handler);
    }
    return warnings;
  }

  private static ChashConfig ring3() {
    return ChashConfig.builder()
        .nodes(List.of("a", "b", "c").stream().map(NodeConfig::local).toList())
        .migration(new MigrationConfig(WINDOW, List.of()))
        .cache(new CacheConfig("users", Duration.ofMinutes(30)))
        .build();
  }

  /**
   * A running JVM whose file comes more than a window after the rollout began cannot mend what
   * happened meanwhile, but says it: nothing else tells the operator the rollout outran its window.
   */
  @Test
  void aRunningJvmTakingTheChangePastItsWindow_warnsThatItIsLate() {
    start(ring3());

    List<String> warnings =
        warningsWhile(
            () ->
                manager.reconfigure(
                    config(Instant.now().minus(WINDOW).minusSeconds(30), "a", "b", "c")));

    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("takes the change from [a, b, c]")
        .contains("past the migration window of 5m")
        .contains("widen migration.window");
  }

  /**
   * A JVM still on the older of two replaced rings (it skipped the change made during the first
   * rollout) is late by the older ring's rollout, even while the newer one's runs.
   */
  @Test
  void aRunningJvmThatSkippedAChange_isLateByTheRingItRuns() {
    start(ring3());
    Instant now = Instant.now();

    List<String> warnings =
        warningsWhile(
            () ->
                manager.reconfigure(
                    config(
                        List.of(
                            ring(now.minusSeconds(60), "a", "b", "c", "e"),
                            ring(now.minus(WINDOW).minusSeconds(30), "a", "b", "c")))));

    assertThat(warnings).singleElement().asString().contains("takes the change from [a, b, c]");
  }

  @Test
  void aRunningJvmTakingTheChangeWithinItsWindow_orAlreadyOnIt_saysNothing() {
    start(ring3());
    ChashConfig change = config(Instant.now().minus(WINDOW).plusSeconds(30), "a", "b", "c");
    ChashConfig reloadLater = config(Instant.now().minus(WINDOW).minusSeconds(30), "a", "b", "c");

    assertThat(warningsWhile(() -> manager.reconfigure(change))).isEmpty();
    assertThat(warningsWhile(() -> manager.reconfigure(reloadLater)))
        .as("a reload of the file this JVM already runs, after the window")
        .isEmpty();
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

  @Test
  void startedDuringAChangeMadeInAnEarlierOnesRollout_keepsBothRingsAsPriors() {
    Instant now = Instant.now();
    start(
        config(
            List.of(
                ring(now.minusSeconds(10), "a", "b", "c"), ring(now.minusSeconds(60), "a", "b"))));

    assertThat(manager.ring().nodes().stream().map(Node::id)).containsExactly("a", "b", "c", "d");
    assertThat(priorNodes())
        .as("newest first")
        .containsExactly(List.of("a", "b", "c"), List.of("a", "b"));
  }

  @Test
  void anEarlierRolloutOverAWindowAgo_isNotAPrior() {
    Instant now = Instant.now();
    start(
        config(
            List.of(
                ring(now.minusSeconds(10), "a", "b", "c"),
                ring(now.minus(WINDOW).minusSeconds(1), "a", "b"))));

    assertThat(priorNodes()).containsExactly(List.of("a", "b", "c"));
  }

  @Test
  void aMembershipSourcesFirstDocumentNamingTheReplacedRing_isReachedThroughIt() {
    ChashConfig bootstrap =
        ChashConfig.builder()
            .node(NodeConfig.local("a"))
            .cache(new CacheConfig("users", Duration.ofMinutes(30)))
            .build();
    start(bootstrap);
    HandSource source = new HandSource();
    java.util.function.BiConsumer<Long, String> document =
        (epoch, yaml) ->
            source.listener.document(
                epoch,
                "r" + epoch,
                yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "source");
    String since = Instant.now().minusSeconds(30).toString();
    try (MembershipFollower follower = MembershipFollower.follow(manager, bootstrap, source)) {
      document.accept(
          1L,
          "nodes: [{ id: a }, { id: b }, { id: c }, { id: d }]\n"
              + "caches: { users: { ttl: 30m } }\n"
              + "migration: { window: 5m, replaces: { since: \""
              + since
              + "\", nodes: [a, b, c] } }\n");

      assertThat(manager.ring().nodes().stream().map(Node::id)).containsExactly("a", "b", "c", "d");
      assertThat(priorNodes()).as("newest first").startsWith(List.of("a", "b", "c"));

      document.accept(
          2L,
          "nodes: [{ id: a }, { id: b }, { id: c }]\n"
              + "caches: { users: { ttl: 30m } }\n"
              + "migration: { window: 5m, replaces: { since: \""
              + since
              + "\", nodes: [a, b] } }\n");
      assertThat(priorNodes())
          .as("a later document's replaces is not a start")
          .doesNotContain(List.of("a", "b"));
      assertThat(follower.status().appliedEpoch()).isEqualTo(2);
    }
  }
}
