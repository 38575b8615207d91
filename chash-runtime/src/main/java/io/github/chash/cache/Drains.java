package io.github.chash.cache;

import io.github.chash.config.NodeConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The nodes an operator drained ({@link ShardedCacheManager#drain}) and has not readmitted, by id,
 * each with its configuration from the latest configuration that listed it. Drains are the
 * operator's decision, so a new node list from a reload (a watched file, a membership source) does
 * not undo them: {@link #keepOut} is the one rule that says how a list and the drains combine.
 * Changed under the {@link Membership}'s lock; {@link #ids} reads from any thread.
 */
final class Drains {
  private Map<String, NodeConfig> drained = new TreeMap<>();

  /** The drained ids, for readers that must not wait for a change under way. */
  private volatile Set<String> ids = Set.of();

  /** A reload's node list with the drains applied, and the drains once it is applied. */
  record Applied(List<NodeConfig> nodes, Map<String, NodeConfig> drained) {}

  /**
   * The rule: a drained node that the next list names stays out of the ring, and its configuration
   * becomes the list's (a readmission brings it back as the latest file says); a drained node the
   * list no longer names is forgotten. Changes nothing until {@link #replace}.
   *
   * @param next the nodes a reload asks for
   * @return the nodes to run, and the drains after the reload
   */
  Applied keepOut(List<NodeConfig> next) {
    List<NodeConfig> nodes = new ArrayList<>();
    Map<String, NodeConfig> after = new TreeMap<>();
    for (NodeConfig node : next) {
      if (drained.containsKey(node.id())) {
        after.put(node.id(), node);
      } else {
        nodes.add(node);
      }
    }
    if (nodes.isEmpty() && !after.isEmpty()) {
      throw new IllegalArgumentException(
          "every node of the configuration is drained "
              + after.keySet()
              + "; readmit one before the manager can run it");
    }
    return new Applied(nodes, after);
  }

  /**
   * Makes {@code next} the drains, published at once (before the ring they go with: see {@link
   * Membership#reconfigure}).
   *
   * @return the drains before, to put back if the ring cannot be installed
   */
  Map<String, NodeConfig> replace(Map<String, NodeConfig> next) {
    Map<String, NodeConfig> before = drained;
    drained = new TreeMap<>(next);
    ids = Collections.unmodifiableSet(new TreeSet<>(drained.keySet()));
    return before;
  }

  /** {@return the drains with {@code node} added} */
  Map<String, NodeConfig> plus(NodeConfig node) {
    Map<String, NodeConfig> next = new TreeMap<>(drained);
    next.put(node.id(), node);
    return next;
  }

  /** {@return the drains without {@code id}} */
  Map<String, NodeConfig> minus(String id) {
    Map<String, NodeConfig> next = new TreeMap<>(drained);
    next.remove(id);
    return next;
  }

  /**
   * Refuses a programmatic change ({@code addNode}) that would bring a drained node back other than
   * by its readmission.
   */
  void refuseDrained(List<NodeConfig> next) {
    for (NodeConfig node : next) {
      if (drained.containsKey(node.id())) {
        throw new IllegalArgumentException(
            "node \"" + node.id() + "\" is drained; readmit it to bring it back");
      }
    }
  }

  boolean contains(String id) {
    return drained.containsKey(id);
  }

  /**
   * {@return the configuration a readmission of the node brings back}
   *
   * @throws IllegalArgumentException if the node is not drained
   */
  NodeConfig configOf(String id) {
    NodeConfig config = drained.get(id);
    if (config == null) {
      throw new IllegalArgumentException(
          "node \"" + id + "\" is not drained; drained nodes are " + drained.keySet());
    }
    return config;
  }

  /** {@return the drained ids, in id order; any thread, without the membership's lock} */
  Set<String> ids() {
    return ids;
  }
}
