package io.github.chash.benchmarks.compat;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.KetamaCompat;
import io.github.chash.ring.Node;
import io.github.chash.ring.PeerVectors;
import io.github.chash.ring.PeerVectors.Case;
import io.github.chash.ring.PeerVectors.VectorNode;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the peers' cases share: node counts, weights, and the "before" rings. */
final class Cases {
  /** The node counts every peer is checked at; 47 is a count where the formula gives 39 digests. */
  static final int[] COUNTS = {3, 8, 25, 50};

  private Cases() {}

  /** Unequal weights: 1, 2, 3, 1, 2, 3, ... with a heavy last node (weight 8). */
  static int unequalWeight(int i, int n) {
    return i == n - 1 ? 8 : 1 + i % 3;
  }

  /** A case's label: named or unnamed, equal or unequal weights, and the node count. */
  static String label(String prefix, boolean named, boolean equal, int n) {
    return prefix + (named ? "named-" : "unnamed-") + (equal ? "equal-" : "unequal-") + n;
  }

  /** Nodes whose name, if any, became their id: what a user could write before names existed. */
  static List<Node> namesAsIds(Case c) {
    List<Node> nodes = new ArrayList<>();
    for (VectorNode n : c.nodes()) {
      nodes.add(Node.of(n.name() != null ? n.name() : n.id(), n.weight()));
    }
    return nodes;
  }

  /** chash's ketama before compat variants existed (spymemcached's rule), names as ids. */
  static Map<String, Peer.Before> ketamaBefore(Case c) {
    Map<String, Peer.Before> before = new LinkedHashMap<>();
    before.put(
        "ketama",
        new Peer.Before(
            RingSettings.builder()
                .algorithm(Algorithm.KETAMA)
                .compat(KetamaCompat.SPYMEMCACHED)
                .build(),
            namesAsIds(c)));
    return before;
  }

  /** A configuration's placements of the case's keys, as positions in the case's nodes. */
  static int[] placements(Case c, Peer.Before config) {
    Ring ring = Rings.create(config.settings(), config.nodes());
    Map<String, Integer> position = new HashMap<>();
    for (int i = 0; i < config.nodes().size(); i++) {
      position.put(config.nodes().get(i).id(), i);
    }
    int[] owners = new int[c.keys()];
    for (int i = 0; i < owners.length; i++) {
      owners[i] = position.get(ring.locate(PeerVectors.key(i, c.tagged())).id());
    }
    return owners;
  }
}
