package io.github.chash.ring;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntPredicate;

/**
 * What every non-empty ring shares: the settings, the nodes in their canonical order, argument
 * checks and the ownership map. Subclasses map a key to a node index.
 */
abstract class AbstractRing implements Ring {
  private final RingSettings settings;
  final List<Node> nodes;

  AbstractRing(RingSettings settings, List<Node> nodes) {
    this.settings = settings;
    this.nodes = List.copyOf(nodes);
  }

  @Override
  public final RingSettings settings() {
    return settings;
  }

  @Override
  public final List<Node> nodes() {
    return nodes;
  }

  @Override
  public final Node locate(CharSequence key) {
    return nodes.get(owner(checkKey(key)));
  }

  @Override
  public final int locateIndex(CharSequence key) {
    return owner(checkKey(key));
  }

  @Override
  public final List<Node> locate(CharSequence key, int n) {
    checkCount(n, nodes.size());
    int[] indexes = preference(checkKey(key), n);
    List<Node> result = new ArrayList<>(n);
    for (int i : indexes) {
      result.add(nodes.get(i));
    }
    return Collections.unmodifiableList(result);
  }

  @Override
  public final int locateIndex(CharSequence key, IntPredicate usable) {
    Objects.requireNonNull(usable, "usable");
    int owner = owner(checkKey(key));
    return usable.test(owner) ? owner : firstUsable(key, usable);
  }

  /**
   * The first index of the key's preference list that {@code usable} accepts, or -1; called when
   * the owner is refused. This walks the whole list; algorithms with a cheaper walk override it.
   */
  int firstUsable(CharSequence key, IntPredicate usable) {
    for (int index : preference(key, nodes.size())) {
      if (usable.test(index)) {
        return index;
      }
    }
    return -1;
  }

  /**
   * The exact shares by node index when the refused nodes' keys go to the next usable node of their
   * preference lists (refused nodes get 0); the shares of {@link #routingAround}.
   */
  abstract double[] shares(IntPredicate usable);

  @Override
  public final Map<String, Double> ownership() {
    double[] shares = shares();
    Map<String, Double> map = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      map.put(nodes.get(i).id(), shares[i]);
    }
    return Collections.unmodifiableMap(map);
  }

  /** The index (in {@link #nodes}) of the key's owner. */
  abstract int owner(CharSequence key);

  /** The indexes of the key's first {@code n} distinct nodes, owner first; 1 <= n <= size. */
  abstract int[] preference(CharSequence key, int n);

  /** The exact shares by node index, summing to 1. */
  abstract double[] shares();

  /** The placement as a map of key positions, or null when the algorithm has none. */
  PositionMap positionMap() {
    return null;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{" + settings + ", nodes=" + nodes + "}";
  }

  static CharSequence checkKey(CharSequence key) {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    return key;
  }

  static void checkCount(int n, int size) {
    if (n <= 0 || n > size) {
      throw new IllegalArgumentException(
          "n must be between 1 and the node count " + size + "; was " + n);
    }
  }
}
