package io.github.chash.ring;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Creates ring snapshots. The implementations are package-private; callers see only {@link Ring}.
 * All methods are thread-safe.
 */
public final class Rings {
  private Rings() {}

  /**
   * Builds a ring of the given nodes. An empty collection gives an empty ring whose lookups throw.
   * The nodes are sorted by id first (for {@code jump} their order is kept: it numbers the
   * buckets), so the result depends only on the node set and the settings. Building costs O(points
   * log points) for {@code ring} and {@code ketama}, O(M log M) for a maglev table of M slots,
   * O(nodes) otherwise.
   *
   * @throws IllegalArgumentException on a null node or a duplicate id, naming it; for {@code jump},
   *     on a weight other than 1
   */
  public static Ring create(RingSettings settings, Collection<Node> nodes) {
    Objects.requireNonNull(settings, "settings");
    if (nodes == null) {
      throw new IllegalArgumentException("nodes must not be null");
    }
    List<Node> list = new ArrayList<>(nodes.size());
    Set<String> ids = new HashSet<>();
    int index = 0;
    for (Node node : nodes) {
      if (node == null) {
        throw new IllegalArgumentException("nodes[" + index + "] must not be null");
      }
      if (!ids.add(node.id())) {
        throw new IllegalArgumentException("duplicate node id \"" + node.id() + "\"");
      }
      list.add(node);
      index++;
    }
    if (list.isEmpty()) {
      return new EmptyRing(settings);
    }
    if (settings.algorithm() != Algorithm.JUMP) {
      list.sort(null);
    }
    switch (settings.algorithm()) {
      case RING:
        return new VirtualNodeRing(settings, list);
      case KETAMA:
        return new KetamaRing(settings, list);
      case MAGLEV:
        return new MaglevRing(settings, list);
      case RENDEZVOUS:
        return new RendezvousRing(settings, list);
      case JUMP:
        return new JumpRing(settings, list);
      default:
        throw new AssertionError("unknown algorithm " + settings.algorithm());
    }
  }
}
