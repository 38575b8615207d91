package io.github.chash.analysis;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.KetamaCompat;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.Rings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Measures how a ring distributes keys and what membership changes move.
 *
 * <p><b>Shares.</b> A node's fair share is its weight over the total weight; its exact share is the
 * part of the hash space it owns ({@link Ring#ownership()}); its sampled share is the part of the
 * sample keys that {@link Ring#locate(CharSequence)} sends to it. Skew is share / fair share; a
 * node's skew is the larger of its exact and sampled skew.
 *
 * <p><b>Violations.</b> An exact skew above the limit is always a violation. A sampled skew is one
 * only when it lies beyond sampling noise, by a one-sided binomial z-test: with {@code N} sample
 * keys and {@code p = limit * fairShare}, the node's count {@code k} violates when {@code (k - N p)
 * / sqrt(N p (1 - p)) > 3.29}, that is when a ring exactly at the limit would give so many keys
 * with probability below 0.0005 (normal approximation, fine for the sample sizes used here). So a
 * sampled share can exceed the limit by chance without failing a build, but a real excess of real
 * keys (a skewed keys file) does.
 *
 * <p><b>Moved if removed.</b> For {@code ring}, {@code rendezvous}, {@code ketama} with equal
 * weights and the last node of {@code jump}, removing a node moves exactly the keys it owns (these
 * placements are monotone), so the value is its exact share. Otherwise (maglev, weighted ketama,
 * inner jump nodes) rings of up to {@value #MAX_SAMPLED_REMOVALS} nodes are re-built without each
 * node and compared over up to {@value #REMOVAL_SAMPLE_KEYS} sample keys; for larger rings only the
 * lower bound (the owned share) is given.
 *
 * <p>Sampling runs on all cores and allocates no string per key: a million keys on a thousand nodes
 * take well under a second. Stateless and thread-safe.
 */
public final class DistributionAnalysis {
  /** The z statistic a sampled excess must exceed: one-sided p &lt; 0.0005. */
  public static final double DEFAULT_Z_THRESHOLD = 3.29;

  /** Rings up to this size get sampled moved-if-removed values when exact ones are unavailable. */
  public static final int MAX_SAMPLED_REMOVALS = 64;

  /** Sample keys used per removal when moved-if-removed is sampled. */
  public static final int REMOVAL_SAMPLE_KEYS = 200_000;

  private DistributionAnalysis() {}

  /**
   * Analyzes a ring with the default z threshold.
   *
   * @param ring the ring, at least one node
   * @param keys the sample keys (may be empty: then only exact shares count)
   * @param limit the largest allowed skew, &gt; 0
   * @return each node's shares and skews, and the limits broken
   * @throws IllegalArgumentException if the ring is empty or the limit is not positive
   */
  public static DistributionReport analyze(Ring ring, KeySource keys, double limit) {
    return analyze(ring, keys, limit, DEFAULT_Z_THRESHOLD);
  }

  /**
   * Analyzes a ring; see the class comment for the quantities and the test.
   *
   * @param ring the ring, at least one node
   * @param keys the sample keys
   * @param limit the largest allowed skew
   * @param zThreshold the z statistic a sampled excess must pass to count as a violation
   * @return each node's shares and skews, and the limits broken
   * @throws IllegalArgumentException if the ring is empty or the limit is not positive
   */
  public static DistributionReport analyze(
      Ring ring, KeySource keys, double limit, double zThreshold) {
    if (ring.size() == 0) {
      throw new IllegalArgumentException("cannot analyze a ring without nodes");
    }
    if (!(limit > 0)) {
      throw new IllegalArgumentException("skew limit must be positive, was " + limit);
    }
    List<Node> nodes = ring.nodes();
    Map<String, Double> ownership = ring.ownership();
    long totalWeight = nodes.stream().mapToLong(Node::weight).sum();
    int n = keys.size();
    long[] counts = n == 0 ? new long[nodes.size()] : KeySampler.count(ring, keys, n);
    double[] moved = new double[nodes.size()];
    Estimate[] movedEstimate = new Estimate[nodes.size()];
    movedIfRemoved(ring, keys, ownership, moved, movedEstimate);

    List<NodeStats> stats = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      Node node = nodes.get(i);
      double fair = (double) node.weight() / totalWeight;
      double exact = ownership.getOrDefault(node.id(), 0.0);
      double sampled = n == 0 ? Double.NaN : (double) counts[i] / n;
      double exactSkew = exact / fair;
      double sampledSkew = sampled / fair;
      double z = zScore(counts[i], n, limit * fair);
      double skew = n == 0 ? exactSkew : Math.max(exactSkew, sampledSkew);
      stats.add(
          new NodeStats(
              node.id(),
              node.weight(),
              fair,
              exact,
              sampled,
              counts[i],
              exactSkew,
              sampledSkew,
              skew,
              z,
              moved[i],
              movedEstimate[i]));
    }
    int decimals = DistributionReport.shareDecimals(stats);
    List<Violation> violations = new ArrayList<>();
    for (NodeStats node : stats) {
      Violation v = violation(node, limit, zThreshold, n, decimals);
      if (v != null) {
        violations.add(v);
      }
    }
    // the worst first
    violations.sort(
        Comparator.comparingDouble(Violation::measured)
            .reversed()
            .thenComparing(Violation::subject));
    return new DistributionReport(
        ring.settings(), keys.description(), n, stats, limit, zThreshold, violations);
  }

  /**
   * The node's one violation, or null: its exact share over the limit, or its sampled share over it
   * beyond sampling noise, or both; the message gives both shares on one line.
   */
  private static Violation violation(
      NodeStats node, double limit, double zThreshold, int keys, int decimals) {
    boolean exact = node.exactSkew() > limit;
    boolean sampled = keys > 0 && node.sampledSkew() > limit && node.sampledZ() > zThreshold;
    if (!exact && !sampled) {
      return null;
    }
    String exactPart = "exact share " + percent(node.exactShare(), decimals);
    String sampledPart =
        keys == 0
            ? null
            : String.format(
                Locale.ROOT,
                "sampled share %s (z = %.1f%s over %,d keys)",
                percent(node.sampledShare(), decimals),
                node.sampledZ(),
                sampled ? String.format(Locale.ROOT, " > %.2f", zThreshold) : "",
                keys);
    String shares =
        sampledPart == null
            ? exactPart
            : exact ? exactPart + ", " + sampledPart : sampledPart + ", " + exactPart;
    double measured =
        exact && sampled
            ? Math.max(node.exactSkew(), node.sampledSkew())
            : exact ? node.exactSkew() : node.sampledSkew();
    return new Violation(
        exact ? Violation.EXACT_SKEW : Violation.SAMPLED_SKEW,
        node.id(),
        measured,
        limit,
        String.format(
            Locale.ROOT,
            "node %s: %s, fair share %s: skew %.3f > limit %.2f",
            node.id(),
            shares,
            percent(node.fairShare(), decimals),
            measured,
            limit));
  }

  /**
   * Computes which keys a change moves and where they go: exactly from ownership differences for a
   * single removal or addition on a monotone placement, otherwise by sampling {@code keys}.
   *
   * @param ring the ring, at least one node
   * @param change the nodes removed and added
   * @param keys the sample keys
   * @return the keys moved and where they go
   * @throws IllegalArgumentException if the change removes an absent node or adds a present one
   */
  public static ChangeReport whatIf(Ring ring, RingChange change, KeySource keys) {
    Ring after = change.applyTo(ring);
    double ideal = idealMoved(ring, after);
    boolean singleRemoval = change.added().isEmpty() && change.removed().size() == 1;
    boolean singleAddition = change.removed().isEmpty() && change.added().size() == 1;
    if (singleRemoval && removalIsMonotone(ring, change.removed().get(0))) {
      String gone = change.removed().get(0);
      Map<String, Double> before = ring.ownership();
      List<Flow> flows = new ArrayList<>();
      after
          .ownership()
          .forEach((id, share) -> addFlow(flows, gone, id, share - before.getOrDefault(id, 0.0)));
      return exact(change, before.get(gone), ideal, flows);
    }
    if (singleAddition && additionIsMonotone(ring, change.added().get(0))) {
      String fresh = change.added().get(0).id();
      Map<String, Double> now = after.ownership();
      List<Flow> flows = new ArrayList<>();
      ring.ownership()
          .forEach((id, share) -> addFlow(flows, id, fresh, share - now.getOrDefault(id, 0.0)));
      return exact(change, now.get(fresh), ideal, flows);
    }
    int n = keys.size();
    Map<Long, Long> moves = n == 0 ? Map.of() : KeySampler.transitions(ring, after, keys);
    List<Flow> flows = new ArrayList<>();
    long moved = 0;
    int width = after.size();
    for (Map.Entry<Long, Long> e : moves.entrySet()) {
      moved += e.getValue();
      flows.add(
          new Flow(
              ring.nodes().get((int) (e.getKey() / width)).id(),
              after.nodes().get((int) (e.getKey() % width)).id(),
              (double) e.getValue() / n));
    }
    flows.sort(byFractionDescending());
    return new ChangeReport(
        change, n == 0 ? Double.NaN : (double) moved / n, ideal, Estimate.SAMPLED, n, flows);
  }

  /**
   * The one-sided binomial z statistic of {@code count} successes in {@code n} against {@code p}.
   */
  static double zScore(long count, int n, double p) {
    if (n == 0) {
      return Double.NaN;
    }
    if (p >= 1) {
      return Double.NEGATIVE_INFINITY; // no count can exceed a share of 1 or more
    }
    double expected = n * p;
    return (count - expected) / Math.sqrt(n * p * (1 - p));
  }

  private static ChangeReport exact(
      RingChange change, double moved, double ideal, List<Flow> flows) {
    flows.sort(byFractionDescending());
    return new ChangeReport(change, moved, ideal, Estimate.EXACT, 0, flows);
  }

  private static void addFlow(List<Flow> flows, String from, String to, double fraction) {
    if (fraction > 1e-12 && !from.equals(to)) {
      flows.add(new Flow(from, to, fraction));
    }
  }

  private static Comparator<Flow> byFractionDescending() {
    return Comparator.comparingDouble(Flow::fraction)
        .reversed()
        .thenComparing(Flow::from)
        .thenComparing(Flow::to);
  }

  /** Sum of the fair-share gains between the two rings' memberships. */
  private static double idealMoved(Ring before, Ring after) {
    Map<String, Double> fairBefore = fairShares(before);
    Map<String, Double> fairAfter = fairShares(after);
    Set<String> ids = new LinkedHashSet<>(fairBefore.keySet());
    ids.addAll(fairAfter.keySet());
    double gain = 0;
    for (String id : ids) {
      gain += Math.max(0, fairAfter.getOrDefault(id, 0.0) - fairBefore.getOrDefault(id, 0.0));
    }
    return gain;
  }

  private static Map<String, Double> fairShares(Ring ring) {
    double total = ring.nodes().stream().mapToLong(Node::weight).sum();
    Map<String, Double> fair = new HashMap<>();
    ring.nodes().forEach(n -> fair.put(n.id(), n.weight() / total));
    return fair;
  }

  private static void movedIfRemoved(
      Ring ring, KeySource keys, Map<String, Double> ownership, double[] moved, Estimate[] how) {
    List<Node> nodes = ring.nodes();
    int[] owners = null;
    for (int i = 0; i < nodes.size(); i++) {
      Node node = nodes.get(i);
      double owned = ownership.getOrDefault(node.id(), 0.0);
      if (nodes.size() == 1 || removalIsMonotone(ring, node.id())) {
        // a lone node's keys have nowhere to go: all of them "move" (are lost)
        moved[i] = nodes.size() == 1 ? 1.0 : owned;
        how[i] = Estimate.EXACT;
      } else if (nodes.size() <= MAX_SAMPLED_REMOVALS && keys.size() > 0) {
        if (owners == null) {
          owners = KeySampler.owners(ring, keys, REMOVAL_SAMPLE_KEYS);
        }
        List<Node> rest = new ArrayList<>(nodes);
        rest.remove(i);
        long changed = KeySampler.changed(nodes, owners, Rings.create(ring.settings(), rest), keys);
        moved[i] = (double) changed / owners.length;
        how[i] = Estimate.SAMPLED;
      } else {
        moved[i] = owned;
        how[i] = Estimate.LOWER_BOUND;
      }
    }
  }

  private static boolean removalIsMonotone(Ring ring, String id) {
    Algorithm a = ring.settings().algorithm();
    List<Node> nodes = ring.nodes();
    return switch (a) {
      case RING, RENDEZVOUS -> true;
      // the other variants' digest counts depend on the node count
      case KETAMA -> ring.settings().compat() == KetamaCompat.SPYMEMCACHED && equalWeights(nodes);
      case JUMP -> nodes.get(nodes.size() - 1).id().equals(id);
      // unnamed shards after the removed one would be renumbered, so their points would move
      case JEDIS -> unnamedAfter(nodes, id) == 0;
      case MAGLEV -> false;
    };
  }

  private static long unnamedAfter(List<Node> nodes, String id) {
    int at = 0;
    while (!nodes.get(at).id().equals(id)) {
      at++;
    }
    return nodes.subList(at + 1, nodes.size()).stream().filter(n -> n.name().isEmpty()).count();
  }

  private static boolean additionIsMonotone(Ring ring, Node added) {
    Algorithm a = ring.settings().algorithm();
    return switch (a) {
      // jedis appends the node: the others keep their points, the new one wins its collisions
      case RING, RENDEZVOUS, JUMP, JEDIS -> true;
      case KETAMA ->
          ring.settings().compat() == KetamaCompat.SPYMEMCACHED
              && equalWeights(ring.nodes())
              && (ring.size() == 0 || ring.nodes().get(0).weight() == added.weight());
      case MAGLEV -> false;
    };
  }

  private static boolean equalWeights(List<Node> nodes) {
    return nodes.stream().mapToInt(Node::weight).distinct().count() <= 1;
  }

  static String percent(double share, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f%%", share * 100);
  }
}
