package io.github.chash.analysis;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.ring.Algorithm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one rule for order-sensitive algorithms ({@link Algorithm#orderSensitive()}): a node that
 * stays but changes its list position moves its keys, since {@code jump} numbers its buckets and
 * {@code jedis} names an unnamed shard's points by that position. Stateless and thread-safe.
 */
public final class NodeOrder {
  private NodeOrder() {}

  /**
   * Describes the kept nodes whose position changed between the baseline and the current
   * configuration, when both use the same order-sensitive algorithm; empty otherwise. A node
   * renamed as {@link BaselineComparison} pairs renames counts as kept; a {@code jedis} shard with
   * the same name in both names its points by it and so may move freely.
   *
   * @param baseline the configuration compared against
   * @param current the configuration being checked
   * @return the description, or empty when no kept node moved
   */
  public static Optional<String> change(ChashConfig baseline, ChashConfig current) {
    return change(baseline, current, BaselineComparison.renames(baseline.nodes(), current.nodes()));
  }

  static Optional<String> change(
      ChashConfig baseline, ChashConfig current, Map<String, String> renamed) {
    Algorithm algorithm = current.ring().algorithm();
    if (!algorithm.orderSensitive() || baseline.ring().algorithm() != algorithm) {
      return Optional.empty();
    }
    Map<String, Integer> positions = new HashMap<>();
    for (int j = 0; j < current.nodes().size(); j++) {
      positions.put(current.nodes().get(j).id(), j);
    }
    List<String> moved = new ArrayList<>();
    for (int i = 0; i < baseline.nodes().size(); i++) {
      NodeConfig then = baseline.nodes().get(i);
      String id = renamed.getOrDefault(then.id(), then.id());
      Integer j = positions.get(id);
      if (j == null || j == i) {
        continue;
      }
      NodeConfig now = current.nodes().get(j);
      if (algorithm == Algorithm.JEDIS
          && then.name() != null
          && Objects.equals(then.name(), now.name())) {
        continue;
      }
      moved.add(id + " (nodes[" + i + "] -> nodes[" + j + "])");
    }
    if (moved.isEmpty()) {
      return Optional.empty();
    }
    String why =
        algorithm == Algorithm.JUMP
            ? "jump numbers its buckets by list position"
            : "jedis names an unnamed shard's points by its list position";
    return Optional.of(
        "node order changed: "
            + String.join(", ", moved)
            + " ("
            + why
            + ", so "
            + (moved.size() == 1 ? "its" : "their")
            + " keys move)");
  }
}
