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

    MigrationConfig.Replaces replaces = config.migration().replaces();
    assertThat(replaces.since()).isEqualTo(Instant.parse("2026-12-07T10:00:00Z"));
    assertThat(replaces.nodes())
        .containsExactly(
            config.nodes().get(0),
            new NodeConfig("d", NodeType.LOCAL, 1, 100, null),
            config.nodes().get(1));
  }

  @Test
  void noReplaces_isNull() {
    assertThat(ChashConfigs.parse(NODES, "chash.yaml").migration().replaces()).isNull();
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
  }
}
