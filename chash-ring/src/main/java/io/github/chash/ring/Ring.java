package io.github.chash.ring;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * An immutable snapshot of a consistent-hashing ring: a set of nodes and the settings that place
 * keys on them.
 *
 * <p>Placement depends only on the node set (ids and weights) and the {@link RingSettings}, never
 * on the order in which nodes were added (except for {@code jump} and {@code jedis}, whose node
 * order is part of their definition). Snapshots are immutable and thread-safe; "changing" one
 * returns a new snapshot.
 */
public interface Ring {

  /** {@return the settings this ring was built with} */
  RingSettings settings();

  /** {@return the nodes, sorted by id ({@code jump}, {@code jedis}: in the order given)} */
  List<Node> nodes();

  /** {@return the number of nodes} */
  default int size() {
    return nodes().size();
  }

  /**
   * {@return the node that owns the key} Costs one hash of the key plus O(1) expected for {@code
   * ring}, {@code ketama} and {@code jedis} (a cache-resident bucket index, then a short forward
   * scan of the points) and {@code maglev} (one table read); O(log nodes) for {@code jump};
   * O(nodes) for {@code rendezvous}. Allocates nothing for keys whose chars are all ASCII; other
   * keys are encoded to UTF-8 first (except for {@code fnv1-32} and {@code jdk}, which hash chars).
   *
   * @param key the key
   * @throws IllegalStateException if the ring has no nodes
   */
  Node locate(CharSequence key);

  /**
   * {@return the index in {@link #nodes()} of the node that owns the key: {@code
   * nodes().indexOf(locate(key))}, at the cost of {@link #locate(CharSequence)}} For callers that
   * keep per-node state in an array.
   *
   * @param key the key
   * @throws IllegalStateException if the ring has no nodes
   */
  int locateIndex(CharSequence key);

  /**
   * {@return the key's preference list: {@code n} distinct nodes, the owner first, then the nodes
   * that take over the key when the ones before them are gone} Costs O(nodes) for the table of
   * nodes already chosen, plus a walk of about {@code n} steps while {@code n} is small against the
   * node count (more as it nears it: on {@code ring} the last distinct nodes take O(nodes log
   * nodes) points).
   *
   * @param key the key
   * @param n how many distinct nodes, at least 1; capped at the ring's size
   * @throws IllegalArgumentException if {@code n} is not positive or exceeds {@link #size()}
   * @throws IllegalStateException if the ring has no nodes
   */
  List<Node> locate(CharSequence key, int n);

  /**
   * {@return the index in {@link #nodes()} of the first node of the key's preference list that
   * {@code usable} accepts, or -1 when it accepts none: the node that serves the key while the
   * refused ones are out, found without building another ring} Costs {@link #locateIndex} when the
   * owner is usable; otherwise a walk of the preference list, O(1) expected for {@code ring},
   * {@code ketama} and {@code maglev} while few nodes are refused, O(nodes) for {@code rendezvous}
   * and O(log nodes) steps for {@code jump}.
   *
   * @param key the key
   * @param usable accepts the indexes in {@link #nodes()} of the nodes that may serve
   * @throws IllegalStateException if the ring has no nodes
   */
  int locateIndex(CharSequence key, IntPredicate usable);

  /**
   * {@return a view of this ring in which the given nodes are out: each of their keys goes to the
   * next node of its preference list ({@link #locateIndex(CharSequence, IntPredicate)}), every
   * other key stays where it is} Its {@link #nodes()} are the remaining ones, its {@link
   * #ownership()} is exact. Nothing is rebuilt: the view costs O(nodes) to make.
   *
   * @param unavailableIds the ids of the nodes that are out
   * @throws IllegalArgumentException if an id is not a node of this ring
   */
  default Ring routingAround(Collection<String> unavailableIds) {
    return FallbackRing.of(this, unavailableIds);
  }

  /**
   * {@return the exact share of the hash space each node owns, by node id in {@link #nodes()}
   * order; the values sum to 1 (arc lengths for rings, table slots for maglev, the analytic
   * expectation for rendezvous and jump)}
   */
  Map<String, Double> ownership();

  /**
   * {@return a ring with the node added}
   *
   * @param node the node to add
   * @throws IllegalArgumentException if the node is null or a node with the same id is present
   */
  default Ring with(Node node) {
    if (node == null) {
      throw new IllegalArgumentException("node must not be null");
    }
    for (Node n : nodes()) {
      if (n.id().equals(node.id())) {
        throw new IllegalArgumentException("duplicate node id \"" + node.id() + "\"");
      }
    }
    List<Node> next = new ArrayList<>(nodes());
    next.add(node);
    return Rings.create(settings(), next);
  }

  /**
   * {@return a ring without the node of the given id}
   *
   * @param nodeId the id of the node to remove
   * @throws IllegalArgumentException if the id is null, there is no such node, or ({@code jump}) it
   *     is not the last
   */
  default Ring without(String nodeId) {
    if (nodeId == null) {
      throw new IllegalArgumentException("node id must not be null");
    }
    List<Node> next = new ArrayList<>(nodes());
    if (!next.removeIf(n -> n.id().equals(nodeId))) {
      throw new IllegalArgumentException("no node with id \"" + nodeId + "\" in the ring");
    }
    return Rings.create(settings(), next);
  }
}
