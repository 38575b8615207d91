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
   * The nodes are sorted by id first (for {@code jump} and {@code jedis} their order is kept: it
   * numbers the buckets, or names the points), so the result depends only on the node set and the
   * settings. Building costs O(points log points) for {@code ring}, {@code ketama} and {@code
   * jedis}, O(M log M) for a maglev table of M slots, O(nodes) otherwise.
   *
   * @param settings how the ring places keys
   * @param nodes the nodes, with distinct ids
   * @return the ring
   * @throws IllegalArgumentException on a null node, a duplicate id or name, naming it; a named
   *     node for an algorithm other than {@code ketama} and {@code jedis}; for {@code jump}, on a
   *     weight other than 1
   */
  public static Ring create(RingSettings settings, Collection<Node> nodes) {
    Objects.requireNonNull(settings, "settings");
    if (nodes == null) {
      throw new IllegalArgumentException("nodes must not be null");
    }
    List<Node> list = new ArrayList<>(nodes.size());
    Set<String> ids = new HashSet<>();
    Set<String> names = new HashSet<>();
    int index = 0;
    for (Node node : nodes) {
      if (node == null) {
        throw new IllegalArgumentException("nodes[" + index + "] must not be null");
      }
      if (!ids.add(node.id())) {
        throw new IllegalArgumentException("duplicate node id \"" + node.id() + "\"");
      }
      if (node.name().isPresent()) {
        checkNamed(settings.algorithm(), node);
        if (!names.add(node.name().get())) {
          throw new IllegalArgumentException(
              "duplicate node name \"" + node.name().get() + "\" (node \"" + node.id() + "\")");
        }
      }
      list.add(node);
      index++;
    }
    if (list.isEmpty()) {
      return new EmptyRing(settings);
    }
    if (!settings.algorithm().orderSensitive()) {
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
      case JEDIS:
        return new JedisRing(settings, list);
      default:
        throw new AssertionError("unknown algorithm " + settings.algorithm());
    }
  }

  private static void checkNamed(Algorithm algorithm, Node node) {
    if (algorithm != Algorithm.KETAMA && algorithm != Algorithm.JEDIS) {
      throw new IllegalArgumentException(
          "node \""
              + node.id()
              + "\" has a name; only algorithms ketama and jedis name points by it, "
              + algorithm.configName()
              + " by the id");
    }
  }
}
