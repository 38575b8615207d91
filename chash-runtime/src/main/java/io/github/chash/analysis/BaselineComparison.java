package io.github.chash.analysis;

import io.github.chash.analysis.ChangeCause.Kind;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.HashFunction;
import io.github.chash.ring.Node;
import io.github.chash.ring.PositionMap;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Compares the current configuration's ring with a baseline's: which part of the key space changes
 * node, what the least movement for that membership change would be, and why keys move.
 *
 * <p><b>Exact or sampled.</b> When both rings have a {@link PositionMap} with the same key position
 * ({@code ring}, {@code ketama}, {@code maglev} with an unchanged hash; {@code ring} and {@code
 * maglev} share positions), the two maps are merged segment by segment and the moved fraction is
 * exact: O(segments of both). Otherwise (a changed hash, {@code rendezvous}, {@code jump}, or
 * {@code ketama} against another algorithm) the sample keys are located on both rings.
 *
 * <p><b>Renames.</b> A baseline node whose id is gone and a new node with the same type, weight,
 * URI (Redis) and maximum size (local) are one node renamed, paired in file order. Its keys that
 * stay on it do not move; a ring places by id, so most of them do.
 *
 * <p>Stateless and thread-safe.
 */
public final class BaselineComparison {
  private BaselineComparison() {}

  /**
   * Compares the rings of two configurations.
   *
   * @param baseline the configuration compared against
   * @param baselineName its name in messages (file name or {@code groupId:artifactId:version})
   * @param current the current configuration
   * @param keys sample keys, used when an exact comparison is not possible
   * @return the movement between the two rings
   * @throws IllegalArgumentException if a configuration has no nodes
   */
  public static BaselineReport compare(
      ChashConfig baseline, String baselineName, ChashConfig current, KeySource keys) {
    return compare(baseline, baselineName, current, keys, true);
  }

  /**
   * As {@link #compare(ChashConfig, String, ChashConfig, KeySource)}, on the current
   * configuration's ring already built (a large ring takes a second and 8 bytes a point). When the
   * baseline's ring settings and nodes equal the current ones (the usual build: the configuration
   * did not change), that ring serves for both and nothing moves: no second ring is built.
   *
   * @param baseline the configuration compared against
   * @param baselineName its name in messages (file name or {@code groupId:artifactId:version})
   * @param current the current configuration
   * @param keys sample keys, used when an exact comparison is not possible
   * @param currentRing the ring of {@code current}, as {@code Rings.create(current.ring(),
   *     current.ringNodes())} builds it
   * @return the movement between the two rings
   * @throws IllegalArgumentException if a configuration has no nodes
   */
  public static BaselineReport compare(
      ChashConfig baseline,
      String baselineName,
      ChashConfig current,
      Ring currentRing,
      KeySource keys) {
    return compare(baseline, baselineName, current, currentRing, keys, true);
  }

  /** As the public method; {@code exactAllowed = false} forces sampling (tests compare the two). */
  static BaselineReport compare(
      ChashConfig baseline,
      String baselineName,
      ChashConfig current,
      KeySource keys,
      boolean exactAllowed) {
    return compare(
        baseline,
        baselineName,
        current,
        Rings.create(current.ring(), current.ringNodes()),
        keys,
        exactAllowed);
  }

  private static BaselineReport compare(
      ChashConfig baseline,
      String baselineName,
      ChashConfig current,
      Ring after,
      KeySource keys,
      boolean exactAllowed) {
    Objects.requireNonNull(baselineName, "baselineName");
    if (baseline.nodes().isEmpty() || current.nodes().isEmpty()) {
      throw new IllegalArgumentException("cannot compare rings without nodes");
    }
    boolean unchanged = samePlacement(baseline, current);
    Ring before = unchanged ? after : Rings.create(baseline.ring(), baseline.ringNodes());
    Map<String, String> renamed = renames(baseline.nodes(), current.nodes());
    List<String> beforeIds = before.nodes().stream().map(Node::id).toList();
    List<String> afterIds = after.nodes().stream().map(Node::id).toList();
    Map<String, Integer> afterIndex = KeySampler.indexById(after.nodes());
    // baseline node index -> the same physical node's index now, or -1
    int[] same = new int[beforeIds.size()];
    for (int i = 0; i < same.length; i++) {
      String id = beforeIds.get(i);
      same[i] = afterIndex.getOrDefault(renamed.getOrDefault(id, id), -1);
    }

    Optional<PositionMap> mapBefore = PositionMap.of(before);
    Optional<PositionMap> mapAfter = PositionMap.of(after);
    Map<Long, Double> moves;
    double[] shareBefore;
    double[] shareAfter;
    Estimate estimate;
    int sampled;
    String method;
    long width = afterIds.size();
    if (unchanged && exactAllowed) {
      // one ring: every key stays where it is
      moves = Map.of();
      shareBefore = shares(after);
      shareAfter = shareBefore;
      estimate = Estimate.EXACT;
      sampled = 0;
      method = "exact: the same ring settings and nodes";
    } else if (exactAllowed
        && mapBefore.isPresent()
        && mapAfter.isPresent()
        && mapBefore.get().keyPosition().equals(mapAfter.get().keyPosition())) {
      moves = exactMoves(mapBefore.get(), mapAfter.get(), same, width, keyPositions(after));
      shareBefore = shares(before);
      shareAfter = shares(after);
      estimate = Estimate.EXACT;
      sampled = 0;
      method = "exact: merged both rings' maps of " + mapAfter.get().keyPosition() + " positions";
    } else {
      int n = keys.size();
      if (n == 0) {
        throw new IllegalArgumentException(
            "comparing with the baseline needs sample keys: "
                + whySampled(before, after, mapBefore, mapAfter));
      }
      moves = new HashMap<>();
      KeySampler.transitions(before, after, keys)
          .forEach(
              (pair, count) -> {
                if (same[(int) (pair / width)] != (int) (pair % width)) {
                  moves.put(pair, (double) count / n);
                }
              });
      shareBefore = sampledShares(before, keys);
      shareAfter = sampledShares(after, keys);
      estimate = Estimate.SAMPLED;
      sampled = n;
      method =
          "sampled over "
              + n
              + " keys ("
              + keys.description()
              + "): "
              + whySampled(before, after, mapBefore, mapAfter);
    }

    double moved = 0;
    double[] gained = new double[afterIds.size()];
    double[] lost = new double[beforeIds.size()];
    List<Flow> flows = new ArrayList<>();
    for (Map.Entry<Long, Double> e : moves.entrySet()) {
      int from = (int) (e.getKey() / width);
      int to = (int) (e.getKey() % width);
      double f = e.getValue();
      moved += f;
      gained[to] += f;
      lost[from] += f;
      flows.add(new Flow(beforeIds.get(from), afterIds.get(to), f));
    }
    flows.sort(
        Comparator.comparingDouble(Flow::fraction)
            .reversed()
            .thenComparing(Flow::from)
            .thenComparing(Flow::to));

    List<NodeMovement> nodes = new ArrayList<>();
    Map<Integer, Integer> beforeOf = new HashMap<>();
    for (int i = 0; i < same.length; i++) {
      if (same[i] >= 0) {
        beforeOf.put(same[i], i);
      }
    }
    for (int j = 0; j < afterIds.size(); j++) {
      Integer i = beforeOf.get(j);
      String previous =
          i != null && !beforeIds.get(i).equals(afterIds.get(j)) ? beforeIds.get(i) : null;
      nodes.add(
          new NodeMovement(
              afterIds.get(j),
              previous,
              i == null ? 0 : shareBefore[i],
              shareAfter[j],
              gained[j],
              i == null ? 0 : lost[i]));
    }
    for (int i = 0; i < same.length; i++) {
      if (same[i] < 0) {
        nodes.add(new NodeMovement(beforeIds.get(i), null, shareBefore[i], 0, 0, lost[i]));
      }
    }

    Map<String, Double> fairBefore = new LinkedHashMap<>();
    fair(before).forEach((id, share) -> fairBefore.put(renamed.getOrDefault(id, id), share));
    Map<String, Double> fairAfter = fair(after);
    double ideal = 0;
    double stay = 0;
    for (Map.Entry<String, Double> e : fairAfter.entrySet()) {
      double was = fairBefore.getOrDefault(e.getKey(), 0.0);
      ideal += Math.max(0, e.getValue() - was);
      stay += e.getValue() * was;
    }
    return new BaselineReport(
        baselineName,
        Math.min(1, moved),
        ideal,
        1 - stay,
        estimate,
        sampled,
        method,
        causes(baseline, current, renamed),
        nodes,
        flows);
  }

  /**
   * Whether both configurations place every key alike: equal ring settings and the same nodes (ids
   * and weights; for {@code jump} in the same order, which numbers its buckets).
   */
  static boolean samePlacement(ChashConfig baseline, ChashConfig current) {
    if (!baseline.ring().equals(current.ring())) {
      return false;
    }
    List<Node> then = baseline.ringNodes();
    List<Node> now = current.ringNodes();
    if (current.ring().algorithm() == Algorithm.JUMP) {
      return then.equals(now);
    }
    return then.size() == now.size() && new HashSet<>(then).containsAll(now);
  }

  /**
   * How many of the 2^32 map positions keys can take: fewer for a narrower hash (fnv1-32 keeps 31
   * bits) under {@code ring} and {@code maglev}, whose key position is the hash's top 32 bits; the
   * rest of the map is never reached, so it must not count as moved.
   */
  static long keyPositions(Ring ring) {
    HashFunction hash = ring.settings().hash();
    Algorithm algorithm = ring.settings().algorithm();
    if (hash.bits() == 64 || (algorithm != Algorithm.RING && algorithm != Algorithm.MAGLEV)) {
      return PositionMap.POSITIONS;
    }
    return Math.min(hash.maxValue(), PositionMap.POSITIONS - 1) + 1;
  }

  /**
   * Merges two position maps over the key positions {@code [0, positionCount)}: moved fractions
   * keyed {@code from * width + to}.
   */
  private static Map<Long, Double> exactMoves(
      PositionMap a, PositionMap b, int[] same, long width, long positionCount) {
    Map<Long, Long> lengths = new HashMap<>();
    int i = 0;
    int j = 0;
    long previous = -1;
    while (i < a.size() && j < b.size()) {
      long end = Math.min(a.end(i), b.end(j));
      int from = a.owner(i);
      int to = b.owner(j);
      long reachableEnd = Math.min(end, positionCount - 1);
      if (same[from] != to && reachableEnd > previous) {
        lengths.merge(from * width + to, reachableEnd - previous, Long::sum);
      }
      previous = end;
      if (a.end(i) == end) {
        i++;
      }
      if (b.end(j) == end) {
        j++;
      }
    }
    Map<Long, Double> moves = new HashMap<>();
    lengths.forEach((pair, length) -> moves.put(pair, length / (double) positionCount));
    return moves;
  }

  private static String whySampled(
      Ring before, Ring after, Optional<PositionMap> mapBefore, Optional<PositionMap> mapAfter) {
    if (mapBefore.isEmpty() || mapAfter.isEmpty()) {
      Ring without = mapBefore.isEmpty() ? before : after;
      return without.settings().algorithm().configName() + " has no map of key positions";
    }
    if (mapBefore.get().keyPosition().equals(mapAfter.get().keyPosition())) {
      return "exact comparison not requested";
    }
    return "the rings place keys at different positions ("
        + mapBefore.get().keyPosition()
        + " before, "
        + mapAfter.get().keyPosition()
        + " now)";
  }

  /**
   * Pairs removed and added nodes of equal type, weight, URI and maximum size, in file order: old
   * id to new id.
   */
  static Map<String, String> renames(List<NodeConfig> before, List<NodeConfig> after) {
    Map<String, NodeConfig> nowById = new HashMap<>();
    after.forEach(n -> nowById.put(n.id(), n));
    Map<String, NodeConfig> thenById = new HashMap<>();
    before.forEach(n -> thenById.put(n.id(), n));
    List<NodeConfig> added = after.stream().filter(n -> !thenById.containsKey(n.id())).toList();
    List<NodeConfig> free = new ArrayList<>(added);
    Map<String, String> renamed = new LinkedHashMap<>();
    for (NodeConfig old : before) {
      if (nowById.containsKey(old.id())) {
        continue;
      }
      for (NodeConfig fresh : free) {
        if (fresh.type().equals(old.type())
            && fresh.weight() == old.weight()
            && fresh.maximumSize() == old.maximumSize()
            && Objects.equals(fresh.uri(), old.uri())) {
          renamed.put(old.id(), fresh.id());
          free.remove(fresh);
          break;
        }
      }
    }
    return renamed;
  }

  private static List<ChangeCause> causes(
      ChashConfig baseline, ChashConfig current, Map<String, String> renamed) {
    List<ChangeCause> causes = new ArrayList<>();
    RingSettings then = baseline.ring();
    RingSettings now = current.ring();
    if (then.algorithm() != now.algorithm()) {
      causes.add(
          new ChangeCause(
              Kind.ALGORITHM,
              "algorithm changed from "
                  + then.algorithm().configName()
                  + " to "
                  + now.algorithm().configName()));
    }
    // ketama always hashes with md5 and jedis with murmur64a: their hash is part of the algorithm
    if (then.algorithm() == now.algorithm()
        && now.algorithm() == Algorithm.KETAMA
        && then.compat() != now.compat()) {
      causes.add(
          new ChangeCause(
              Kind.COMPAT,
              "ketama compat changed from "
                  + then.compat().configName()
                  + " to "
                  + now.compat().configName()));
    }
    if (!hashIsFixed(then.algorithm())
        && !hashIsFixed(now.algorithm())
        && !then.hash().name().equals(now.hash().name())) {
      causes.add(
          new ChangeCause(
              Kind.HASH, "hash changed from " + then.hash().name() + " to " + now.hash().name()));
    }
    if (then.algorithm() == now.algorithm() && then.keyTags() != now.keyTags()) {
      causes.add(
          new ChangeCause(
              Kind.HASH,
              "keyTags changed from "
                  + then.keyTags()
                  + " to "
                  + now.keyTags()
                  + " (keys hash "
                  + (now.keyTags() ? "by their {tag}" : "whole")
                  + ")"));
    }
    if (then.algorithm() == now.algorithm()
        && usesPoints(now.algorithm())
        && then.pointsPerWeight() != now.pointsPerWeight()) {
      causes.add(
          new ChangeCause(
              Kind.POINTS_PER_WEIGHT,
              "pointsPerWeight changed from "
                  + then.pointsPerWeight()
                  + " to "
                  + now.pointsPerWeight()));
    }
    renamed.forEach(
        (old, fresh) ->
            causes.add(new ChangeCause(Kind.RENAMED, "node renamed from " + old + " to " + fresh)));
    Map<String, NodeConfig> thenById = new HashMap<>();
    baseline.nodes().forEach(n -> thenById.put(n.id(), n));
    Map<String, NodeConfig> nowById = new HashMap<>();
    current.nodes().forEach(n -> nowById.put(n.id(), n));
    for (NodeConfig n : current.nodes()) {
      NodeConfig old = thenById.get(n.id());
      if (old != null && old.weight() != n.weight()) {
        causes.add(
            new ChangeCause(
                Kind.REWEIGHTED,
                "node " + n.id() + " re-weighted from " + old.weight() + " to " + n.weight()));
      }
    }
    List<String> added =
        current.nodes().stream()
            .map(NodeConfig::id)
            .filter(id -> !thenById.containsKey(id) && !renamed.containsValue(id))
            .toList();
    if (!added.isEmpty()) {
      causes.add(
          new ChangeCause(
              Kind.ADDED,
              (added.size() == 1 ? "node added: " : "nodes added: ") + String.join(", ", added)));
    }
    List<String> removed =
        baseline.nodes().stream()
            .map(NodeConfig::id)
            .filter(id -> !nowById.containsKey(id) && !renamed.containsKey(id))
            .toList();
    if (!removed.isEmpty()) {
      causes.add(
          new ChangeCause(
              Kind.REMOVED,
              (removed.size() == 1 ? "node removed: " : "nodes removed: ")
                  + String.join(", ", removed)));
    }
    NodeOrder.change(baseline, current, renamed)
        .ifPresent(message -> causes.add(new ChangeCause(Kind.ORDER, message)));
    return causes;
  }

  private static boolean hashIsFixed(Algorithm a) {
    return a == Algorithm.KETAMA || a == Algorithm.JEDIS;
  }

  private static boolean usesPoints(Algorithm a) {
    return a == Algorithm.RING || a == Algorithm.KETAMA;
  }

  private static double[] shares(Ring ring) {
    Map<String, Double> ownership = ring.ownership();
    return ring.nodes().stream().mapToDouble(n -> ownership.getOrDefault(n.id(), 0.0)).toArray();
  }

  private static double[] sampledShares(Ring ring, KeySource keys) {
    long[] counts = KeySampler.count(ring, keys, keys.size());
    double[] shares = new double[counts.length];
    for (int i = 0; i < counts.length; i++) {
      shares[i] = (double) counts[i] / keys.size();
    }
    return shares;
  }

  private static Map<String, Double> fair(Ring ring) {
    double total = ring.nodes().stream().mapToLong(Node::weight).sum();
    Map<String, Double> fair = new LinkedHashMap<>();
    ring.nodes().forEach(n -> fair.put(n.id(), n.weight() / total));
    return fair;
  }
}
