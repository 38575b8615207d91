package io.github.chash.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import org.junit.jupiter.api.Test;

class NodeOrderTest {
  private static ChashConfig config(String algorithm, String nodes) {
    return ChashConfigs.parse(
        "ring: { algorithm: " + algorithm + " }\nnodes: " + nodes + "\n", "chash.yaml");
  }

  @Test
  void change_jedisUnnamedShardMoved_namesIt() {
    ChashConfig before = config("jedis", "[{id: a}, {id: b}, {id: c, name: s}]");
    ChashConfig after = config("jedis", "[{id: b}, {id: c, name: s}, {id: a}]");
    assertThat(NodeOrder.change(before, after))
        .contains(
            "node order changed: a (nodes[0] -> nodes[2]), b (nodes[1] -> nodes[0]) (jedis names an"
                + " unnamed shard's points by its list position, so their keys move)");
  }

  @Test
  void change_appendOrRemoveTheLast_orOrderFreeAlgorithm_isNone() {
    ChashConfig three = config("jump", "[{id: a}, {id: b}, {id: c}]");
    assertThat(NodeOrder.change(three, config("jump", "[{id: a}, {id: b}, {id: c}, {id: d}]")))
        .isEmpty();
    assertThat(NodeOrder.change(three, config("jump", "[{id: a}, {id: b}]"))).isEmpty();
    assertThat(
            NodeOrder.change(
                config("ring", "[{id: a}, {id: b}]"), config("ring", "[{id: b}, {id: a}]")))
        .isEmpty();
    assertThat(NodeOrder.change(three, config("jump", "[{id: b}, {id: c}]")))
        .contains(
            "node order changed: b (nodes[1] -> nodes[0]), c (nodes[2] -> nodes[1]) (jump numbers"
                + " its buckets by list position, so their keys move)");
  }

  @Test
  void compare_ketamaCompatChange_isItsOwnCause() {
    ChashConfig spy =
        ChashConfigs.parse("ring: { algorithm: ketama }\nnodes: [{id: a}, {id: b}]\n", "a");
    ChashConfig twem =
        ChashConfigs.parse(
            "ring: { algorithm: ketama, compat: twemproxy }\nnodes: [{id: a}, {id: b}]\n", "b");
    BaselineReport r =
        BaselineComparison.compare(spy, "a", twem, KeySource.pattern("key:{n}", 1000));
    assertThat(r.causes())
        .containsExactly(
            new ChangeCause(
                ChangeCause.Kind.COMPAT, "ketama compat changed from spymemcached to twemproxy"));
    assertThat(r.estimate()).isEqualTo(Estimate.EXACT);
  }
}
