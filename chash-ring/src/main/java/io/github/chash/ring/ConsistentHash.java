package io.github.chash.ring;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * A mutable, thread-safe ring, changed with {@code add} and {@code remove} and asked with {@code
 * locate} (the same question as {@link Ring#locate(CharSequence)}), over an immutable {@link Ring}
 * snapshot that each change replaces atomically (copy-on-write).
 *
 * <p>Lookups read the current snapshot without locking; a change builds a new snapshot, so it costs
 * a full ring build. Concurrent changes are serialized by compare-and-set and never lost.
 */
public final class ConsistentHash {
  private final AtomicReference<Ring> current;

  private ConsistentHash(Ring initial) {
    this.current = new AtomicReference<>(initial);
  }

  /**
   * {@return an empty ring with the given settings}
   *
   * @param settings how the ring places keys
   */
  public static ConsistentHash create(RingSettings settings) {
    return new ConsistentHash(Rings.create(settings, List.of()));
  }

  /**
   * {@return a ring with the given settings and nodes}
   *
   * @param settings how the ring places keys
   * @param nodes the new nodes
   */
  public static ConsistentHash create(RingSettings settings, List<Node> nodes) {
    return new ConsistentHash(Rings.create(settings, nodes));
  }

  /**
   * {@return the node that owns the key in the current snapshot; see {@link
   * Ring#locate(CharSequence)}}
   *
   * @param key the key
   * @throws IllegalStateException if the ring has no nodes
   */
  public Node locate(CharSequence key) {
    return current.get().locate(key);
  }

  /**
   * {@return the key's preference list of {@code n} distinct nodes; see {@link
   * Ring#locate(CharSequence, int)}}
   *
   * @param key the key
   * @param n how many distinct nodes, at least 1
   */
  public List<Node> locate(CharSequence key, int n) {
    return current.get().locate(key, n);
  }

  /**
   * Adds a node.
   *
   * @param node the node
   * @return this ring
   * @throws IllegalArgumentException if the node is null or a node with the same id is present
   */
  public ConsistentHash add(Node node) {
    update(ring -> ring.with(node));
    return this;
  }

  /**
   * Removes the node with the node's id.
   *
   * @param node the node
   * @return this ring
   * @throws IllegalArgumentException if the node is null or there is no such node
   */
  public ConsistentHash remove(Node node) {
    if (node == null) {
      throw new IllegalArgumentException("node must not be null");
    }
    return remove(node.id());
  }

  /**
   * Removes the node with the given id.
   *
   * @param nodeId the node's id
   * @return this ring
   * @throws IllegalArgumentException if there is no such node
   */
  public ConsistentHash remove(String nodeId) {
    update(ring -> ring.without(nodeId));
    return this;
  }

  /**
   * Replaces the whole node set in one atomic step.
   *
   * @param nodes the new nodes
   * @return this ring
   * @throws IllegalArgumentException on a null list, a null node or a duplicate id, naming it
   */
  public ConsistentHash replaceNodes(List<Node> nodes) {
    if (nodes == null) {
      throw new IllegalArgumentException("nodes must not be null");
    }
    List<Node> copy = new ArrayList<>(nodes);
    update(ring -> Rings.create(ring.settings(), copy));
    return this;
  }

  /**
   * {@return the current nodes by id, in {@link Ring#nodes()} order} Not a map of virtual points,
   * as the usual {@code TreeMap} ring's is: chash keeps its points in primitive arrays.
   */
  public Map<String, Node> nodeMap() {
    Map<String, Node> map = new LinkedHashMap<>();
    for (Node n : current.get().nodes()) {
      map.put(n.id(), n);
    }
    return Collections.unmodifiableMap(map);
  }

  /** {@return the current immutable snapshot} */
  public Ring snapshot() {
    return current.get();
  }

  private void update(UnaryOperator<Ring> change) {
    current.updateAndGet(change);
  }
}
