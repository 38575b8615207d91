package io.github.chash.config;

import static io.github.chash.config.ConfigTesting.problems;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@code migration.replaces}: the ring a configuration replaces, for JVMs started mid-rollout. */
class MigrationReplacesTest {
  private static final String NODES =
      "nodes:\n"
          + "  - { id: a }\n"
          + "  - { id: b }\n"
          + "  - { id: c }\n"
          + "migration:\n"
          + "  window: 5m\n";

  @Test
  void keptNodesByIdRemovedOnesWhole_inTheirOrder() {
    ChashConfig config =
        ChashConfigs.parse(
            NODES
                + "  replaces:\n"
                + "    since: 2026-12-07T10:00:00Z\n"
                + "    nodes: [a, { id: d, maximumSize: 100 }, b]\n",
            "chash.yaml");

    assertThat(config.migration().replaces()).hasSize(1);
    MigrationConfig.Replaces replaces = config.migration().replaces().get(0);
    assertThat(replaces.since()).isEqualTo(Instant.parse("2026-12-07T10:00:00Z"));
    assertThat(replaces.nodes())
        .containsExactly(
            config.nodes().get(0),
            new NodeConfig("d", NodeType.LOCAL, 1, 100, null),
            config.nodes().get(1));
  }

  @Test
  void noReplaces_isEmpty() {
    assertThat(ChashConfigs.parse(NODES, "chash.yaml").migration().replaces()).isEmpty();
  }

  @Test
  void aListNewestFirst_theRingsOfRolloutsStillRunning_inRolloutOldestFirst() {
    ChashConfig config =
        ChashConfigs.parse(
            NODES
                + "  replaces:\n"
                + "    - { since: 2026-12-07T10:02:00Z, nodes: [a, b] }\n"
                + "    - { since: 2026-12-07T10:00:00Z, nodes: [a] }\n"
                + "    - { since: 2026-12-07T09:00:00Z, nodes: [c] }\n",
            "chash.yaml");

    MigrationConfig migration = config.migration();
    assertThat(migration.replaces())
        .extracting(r -> r.nodes().size())
        .as("in the file's order")
        .containsExactly(2, 1, 1);
    assertThat(migration.inRollout(Instant.parse("2026-12-07T10:04:00Z")))
        .as("oldest first, without the rollout over for an hour")
        .extracting(MigrationConfig.Replaces::since)
        .containsExactly(
            Instant.parse("2026-12-07T10:00:00Z"), Instant.parse("2026-12-07T10:02:00Z"));
    assertThat(migration.inRollout(Instant.parse("2026-12-07T10:06:00Z")))
        .extracting(MigrationConfig.Replaces::since)
        .containsExactly(Instant.parse("2026-12-07T10:02:00Z"));
  }

  @Test
  void inRollout_forOneWindowAfterSince() {
    Instant since = Instant.parse("2026-12-07T10:00:00Z");
    MigrationConfig.Replaces replaces =
        new MigrationConfig.Replaces(since, java.util.List.of(NodeConfig.local("a")));
    Duration window = Duration.ofMinutes(5);

    assertThat(replaces.inRollout(since.minusSeconds(30), window)).as("a clock behind").isTrue();
    assertThat(replaces.inRollout(since.plusSeconds(299), window)).isTrue();
    assertThat(replaces.inRollout(since.plusSeconds(300), window)).isFalse();
  }

  @Test
  void problems_sayWhatAndWhere() {
    assertThat(problems(NODES + "  replaces: { nodes: [a] }\n"))
        .containsExactly(
            "chash.yaml:7:13: migration.replaces is missing required key \"since\", when the"
                + " rollout began, e.g. 2026-12-07T10:00:00Z");
    assertThat(problems(NODES + "  replaces: { since: yesterday, nodes: [a] }\n"))
        .containsExactly(
            "chash.yaml:7:22: migration.replaces.since must be an ISO-8601 instant such as"
                + " 2026-12-07T10:00:00Z, was \"yesterday\"");
    assertThat(problems(NODES + "  replaces: { since: 2026-12-07T10:00:00Z, nodes: [a, x, a] }\n"))
        .containsExactly(
            "chash.yaml:7:55: migration.replaces.nodes[1] \"x\" is not the id of a node in nodes;"
                + " give a removed node's whole entry, e.g. { id: r4, type: redis, uri:"
                + " \"redis://10.0.0.4:6379\" }",
            "chash.yaml:7:58: migration.replaces.nodes[2] names \"a\" twice");
    assertThat(
            problems(NODES + "  replaces: { since: 2026-12-07T10:00:00Z, nodes: [{ id: b }] }\n"))
        .containsExactly(
            "chash.yaml:7:52: migration.replaces.nodes[0] repeats node \"b\" of nodes: name a node"
                + " the change keeps by its id only");
    assertThat(problems(NODES + "  replaces: { since: 2026-12-07T10:00:00Z, nodes: [] }\n"))
        .containsExactly(
            "chash.yaml:7:51: migration.replaces.nodes must list the replaced ring's nodes (an id of"
                + " nodes, or a removed node's entry), at least one");
    assertThat(
            problems(
                NODES
                    + "  replaces:\n"
                    + "    - { since: 2026-12-07T10:00:00Z, nodes: [a] }\n"
                    + "    - { since: 2026-12-07T10:05:00Z, nodes: [a, x] }\n"))
        .containsExactly(
            "chash.yaml:9:49: migration.replaces[1].nodes[1] \"x\" is not the id of a node in"
                + " nodes; give a removed node's whole entry, e.g. { id: r4, type: redis, uri:"
                + " \"redis://10.0.0.4:6379\" }");
    assertThat(
            problems(
                NODES
                    + "  replaces:\n"
                    + "    - { since: 2026-12-07T10:00:00Z, nodes: [a] }\n"
                    + "    - { since: 2026-12-07T10:05:00Z, nodes: [b] }\n"))
        .containsExactly(
            "chash.yaml:9:7: migration.replaces[1] began after the entry before it: list the"
                + " replaced rings newest first");
    assertThat(problems(NODES + "  replaces: []\n"))
        .containsExactly(
            "chash.yaml:7:13: migration.replaces must name at least one replaced ring");
  }
}
