package io.github.chash.ring;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * A ring with some of its nodes out: their keys go to the next available node of each key's
 * preference list, all others stay put. A view over the full ring, so making one rebuilds nothing
 * and the keys of nodes that stay never move. Immutable and thread-safe.
 */
final class FallbackRing implements Ring {
  private final AbstractRing full;
  private final boolean[] available;
  private final List<Node> nodes;

  /** The index in {@link #nodes} of each node of the full ring; -1 for those out. */
  private final int[] viewIndex;

  private FallbackRing(AbstractRing full, boolean[] available) {
    this.full = full;
    this.available = available;
    this.viewIndex = new int[available.length];
    List<Node> kept = new ArrayList<>();
    for (int i = 0; i < available.length; i++) {
      viewIndex[i] = available[i] ? kept.size() : -1;
      if (available[i]) {
        kept.add(full.nodes().get(i));
      }
    }
    this.nodes = List.copyOf(kept);
  }

  static Ring of(Ring ring, Collection<String> unavailableIds) {
    Objects.requireNonNull(unavailableIds, "unavailableIds");
    AbstractRing full;
    Set<String> out = new HashSet<>(unavailableIds);
    if (ring instanceof FallbackRing view) {
      full = view.full;
      for (int i = 0; i < view.available.length; i++) {
        if (!view.available[i]) {
          out.add(full.nodes().get(i).id());
        }
      }
    } else if (ring instanceof AbstractRing abstractRing) {
      full = abstractRing;
    } else {
      if (!unavailableIds.isEmpty()) {
        throw new IllegalArgumentException(
            "no node with id \"" + unavailableIds.iterator().next() + "\" in the ring");
      }
      return ring; // the empty ring
    }
    boolean[] available = new boolean[full.nodes().size()];
    Set<String> known = new HashSet<>();
    for (int i = 0; i < available.length; i++) {
      String id = full.nodes().get(i).id();
      known.add(id);
      available[i] = !out.contains(id);
    }
    for (String id : out) {
      if (!known.contains(id)) {
        throw new IllegalArgumentException("no node with id \"" + id + "\" in the ring");
      }
    }
    return out.isEmpty() ? full : new FallbackRing(full, available);
  }

  @Override
  public RingSettings settings() {
    return full.settings();
  }

  @Override
  public List<Node> nodes() {
    return nodes;
  }

  @Override
  public Node locate(CharSequence key) {
    return full.nodes().get(fullIndex(key));
  }

  @Override
  public int locateIndex(CharSequence key) {
    return viewIndex[fullIndex(key)];
  }

  @Override
  public int locateIndex(CharSequence key, IntPredicate usable) {
    Objects.requireNonNull(usable, "usable");
    int i = full.locateIndex(key, index -> available[index] && usable.test(viewIndex[index]));
    return i < 0 ? -1 : viewIndex[i];
  }

  @Override
  public List<Node> locate(CharSequence key, int n) {
    AbstractRing.checkCount(n, nodes.size());
    List<Node> result = new ArrayList<>(n);
    for (Node node : full.locate(key, full.nodes().size())) {
      if (result.size() == n) {
        break;
      }
      if (viewIndex[full.nodes().indexOf(node)] >= 0) {
        result.add(node);
      }
    }
    return Collections.unmodifiableList(result);
  }

  @Override
  public Map<String, Double> ownership() {
    double[] shares = full.shares(index -> available[index]);
    Map<String, Double> map = new LinkedHashMap<>();
    for (int i = 0; i < available.length; i++) {
      if (available[i]) {
        map.put(full.nodes().get(i).id(), shares[i]);
      }
    }
    return Collections.unmodifiableMap(map);
  }

  private int fullIndex(CharSequence key) {
    if (nodes.isEmpty()) {
      throw new IllegalStateException(
          "every node of the ring is out; cannot locate key "
              + EmptyRing.shown(AbstractRing.checkKey(key)));
    }
    return full.locateIndex(key, index -> available[index]);
  }

  @Override
  public String toString() {
    return "FallbackRing{nodes=" + nodes + ", of " + full + "}";
  }
}
