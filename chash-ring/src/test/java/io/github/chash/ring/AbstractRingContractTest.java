package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** What every algorithm promises; one short subclass per algorithm. */
abstract class AbstractRingContractTest {
  static final int KEYS = 100_000;

  abstract RingSettings settings();

  /**
   * The pinned placement of each variant of the algorithm (hash, compat): a checksum of the owners
   * of {@value #KEYS} keys on {@link #pinnedNodes()}, and of their stand-ins with the fourth node
   * out. A refactor that moves a single key changes it, so mixed versions of a fleet can never
   * disagree on where a key lives without a test saying so (hash4j's contract-test model). A new
   * variant gets its value from a run of this test (it prints what it computed).
   */
  abstract Map<RingSettings, Long> pinnedPlacements();

  /** Twelve nodes of weights 1 to 3 (all 1 where the algorithm knows no weights). */
  List<Node> pinnedNodes() {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      nodes.add(Node.of("cache-" + i, settings().algorithm() == Algorithm.JUMP ? 1 : 1 + i % 3));
    }
    return nodes;
  }

  /** A polynomial fold of each key's owner id and of its stand-in with node 3 out. */
  static long placementChecksum(Ring ring) {
    long checksum = 1;
    for (int i = 0; i < KEYS; i++) {
      String key = key(i);
      checksum = checksum * 1_000_003 + ring.locate(key).id().hashCode();
      checksum = checksum * 1_000_003 + ring.locateIndex(key, index -> index != 3);
    }
    return checksum;
  }

  @Test
  void placement_matchesItsPinnedChecksum() {
    Map<RingSettings, Long> pinned = pinnedPlacements();
    assertThat(pinned).isNotEmpty();
    StringBuilder computed = new StringBuilder();
    pinned.forEach(
        (settings, expected) -> {
          long actual = placementChecksum(Rings.create(settings, pinnedNodes()));
          computed.append(String.format("%n  %s -> 0x%xL", settings, actual));
        });
    pinned.forEach(
        (settings, expected) ->
            assertThat(placementChecksum(Rings.create(settings, pinnedNodes())))
                .as("placement of %s (computed:%s)", settings, computed)
                .isEqualTo(expected));
  }

  /** The largest allowed exact peak/mean share at 100 equal nodes. */
  abstract double maxPeakToMean();

  /** Whether a removal moves no key between surviving nodes and a join takes at most ~1/n. */
  boolean minimalMovement() {
    return true;
  }

  /** Whether shuffling the input order must not change placement. */
  boolean orderIndependent() {
    return true;
  }

  static List<Node> nodes(int count) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      nodes.add(Node.of("node-" + i));
    }
    return nodes;
  }

  static String key(int i) {
    return "key:" + i;
  }

  Ring ring(List<Node> nodes) {
    return Rings.create(settings(), nodes);
  }

  static double peakToMean(Ring ring) {
    double max =
        ring.ownership().values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    return max * ring.size();
  }

  @Test
  void ownership_sumsToOne() {
    Ring ring = ring(nodes(17));
    Map<String, Double> shares = ring.ownership();
    assertThat(shares.keySet()).hasSize(17);
    assertThat(shares.values().stream().mapToDouble(Double::doubleValue).sum())
        .isCloseTo(1.0, within(1e-9));
  }

  @Test
  void ownership_matchesSampledShares() {
    Ring ring = ring(nodes(10));
    Map<String, Integer> counts = new java.util.HashMap<>();
    for (int i = 0; i < KEYS; i++) {
      counts.merge(ring.locate(key(i)).id(), 1, Integer::sum);
    }
    // 5 standard deviations of a binomial share around 0.1 with 100k samples is about 0.005.
    ring.ownership()
        .forEach(
            (id, share) ->
                assertThat(counts.getOrDefault(id, 0) / (double) KEYS)
                    .as(id)
                    .isCloseTo(share, within(0.006)));
  }

  @Test
  void ownership_isBalancedAt100EqualNodes() {
    assertThat(peakToMean(ring(nodes(100)))).isLessThanOrEqualTo(maxPeakToMean());
  }

  @Test
  void locate_isIndependentOfInsertionOrder() {
    List<Node> nodes = nodes(20);
    Ring reference = ring(nodes);
    Random random = new Random(42);
    for (int round = 0; round < 3; round++) {
      List<Node> shuffled = new ArrayList<>(nodes);
      Collections.shuffle(shuffled, random);
      Ring ring = ring(shuffled);
      if (!orderIndependent()) {
        assertThat(ring.nodes()).isEqualTo(shuffled);
        continue;
      }
      assertThat(ring.nodes()).isEqualTo(reference.nodes());
      assertThat(ring.ownership()).isEqualTo(reference.ownership());
      for (int i = 0; i < 20_000; i++) {
        assertThat(ring.locate(key(i), 3)).isEqualTo(reference.locate(key(i), 3));
      }
    }
  }

  @Test
  void locate_isIndependentOfAddRemoveHistory() {
    Ring direct = ring(nodes(10));
    Ring viaHistory = ring(nodes(12)).without("node-11").without("node-10");
    for (int i = 0; i < 20_000; i++) {
      assertThat(viaHistory.locate(key(i))).isEqualTo(direct.locate(key(i)));
    }
  }

  @Test
  void locateIndex_isTheOwnersIndexInNodes() {
    Ring ring = ring(nodes(9));
    for (int i = 0; i < 5_000; i++) {
      String key = "key-" + i;
      assertThat(ring.nodes().get(ring.locateIndex(key))).isEqualTo(ring.locate(key));
    }
  }

  @Test
  void locateN_returnsDistinctNodesOwnerFirst() {
    Ring ring = ring(nodes(8));
    for (int i = 0; i < 5_000; i++) {
      List<Node> list = ring.locate(key(i), 8);
      assertThat(new HashSet<>(list)).hasSize(8);
      assertThat(list.get(0)).isEqualTo(ring.locate(key(i)));
      assertThat(ring.locate(key(i), 3)).isEqualTo(list.subList(0, 3));
    }
  }

  @Test
  void join_movesOnlyToTheNewNode() {
    Ring before = ring(nodes(10));
    Ring after = before.with(Node.of("node-10"));
    int moved = 0;
    for (int i = 0; i < KEYS; i++) {
      Node was = before.locate(key(i));
      Node is = after.locate(key(i));
      if (!was.equals(is)) {
        moved++;
        if (minimalMovement()) {
          assertThat(is.id()).as("key %s moved between old nodes", key(i)).isEqualTo("node-10");
        }
      }
    }
    double fraction = moved / (double) KEYS;
    if (minimalMovement()) {
      // exactly the new node's share moves (5 standard deviations of sampling, as above); how
      // close that share is to 1/11 is the balance tests' business
      assertThat(fraction).isCloseTo(after.ownership().get("node-10"), within(0.006));
      assertThat(fraction).isLessThanOrEqualTo(1.15 / 11);
    } else {
      assertThat(fraction).isLessThanOrEqualTo(1.5 / 11);
    }
    assertThat(fraction).isGreaterThan(0.5 / 11);
  }

  @Test
  void remove_movesOnlyTheRemovedNodesKeys() {
    List<Node> nodes = nodes(100);
    Ring before = ring(nodes);
    String removed = before.nodes().get(before.size() - 1).id();
    Ring after = before.without(removed);
    int movedBetweenSurvivors = 0;
    for (int i = 0; i < KEYS; i++) {
      Node was = before.locate(key(i));
      Node is = after.locate(key(i));
      assertThat(is.id()).isNotEqualTo(removed);
      if (!was.id().equals(removed) && !was.equals(is)) {
        movedBetweenSurvivors++;
      }
    }
    if (minimalMovement()) {
      assertThat(movedBetweenSurvivors).isZero();
    } else {
      assertThat(movedBetweenSurvivors / (double) KEYS).isLessThan(0.02);
    }
  }

  @Test
  void remove_fallsBackToTheSecondPreference() {
    Assumptions.assumeTrue(minimalMovement(), "this algorithm does not promise minimal movement");
    Ring ring = ring(nodes(10));
    int checked = 0;
    for (int i = 0; i < 5_000; i++) {
      List<Node> pref = ring.locate(key(i), 2);
      if (pref.get(0).id().equals(ring.nodes().get(9).id())) {
        assertThat(ring.without(pref.get(0).id()).locate(key(i))).isEqualTo(pref.get(1));
        checked++;
      }
    }
    assertThat(checked).as("keys of the removed node").isGreaterThan(100);
  }

  @Test
  void weights_areHonoured() {
    // jump has buckets, not weights: it refuses them (JumpRingTest)
    Assumptions.assumeFalse(settings().algorithm() == Algorithm.JUMP, "jump refuses weights");
    List<Node> nodes = List.of(Node.of("a", 1), Node.of("b", 2), Node.of("c", 3), Node.of("d", 2));
    Map<String, Double> shares = ring(nodes).ownership();
    assertThat(shares.get("a")).isCloseTo(1 / 8.0, within(0.02));
    assertThat(shares.get("b")).isCloseTo(2 / 8.0, within(0.03));
    assertThat(shares.get("c")).isCloseTo(3 / 8.0, within(0.03));
  }

  @Test
  void singleNode_ownsEverything() {
    Ring ring = ring(List.of(Node.of("only")));
    assertThat(ring.locate("anything").id()).isEqualTo("only");
    assertThat(ring.ownership()).containsEntry("only", 1.0);
  }

  @Test
  void create_duplicateId_isRejected() {
    assertThatThrownBy(() -> ring(List.of(Node.of("a"), Node.of("b"), Node.of("a", 2))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("duplicate node id \"a\"");
    assertThatThrownBy(() -> ring(nodes(2)).with(Node.of("node-1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"node-1\"");
  }

  @Test
  void create_nullNode_isRejected() {
    List<Node> nodes = new ArrayList<>(nodes(2));
    nodes.add(null);
    assertThatThrownBy(() -> ring(nodes))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nodes[2] must not be null");
  }

  @Test
  void node_badIdOrWeight_isRejected() {
    assertThatThrownBy(() -> Node.of(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was null");
    assertThatThrownBy(() -> Node.of(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was \"\"");
    assertThatThrownBy(() -> Node.of("a", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> Node.of("a", -3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was -3");
  }

  @Test
  void locate_emptyRing_isIllegalState() {
    Ring ring = ring(List.of());
    assertThat(ring.ownership()).isEmpty();
    assertThatThrownBy(() -> ring.locate("k1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("ring has no nodes; cannot locate key \"k1\"");
    assertThatThrownBy(() -> ring.locate("k1", 1)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void locateN_outOfRange_isRejected() {
    Ring ring = ring(nodes(3));
    assertThatThrownBy(() -> ring.locate("k", 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("n must be between 1 and the node count 3; was 4");
    assertThatThrownBy(() -> ring.locate("k", 0)).hasMessageEndingWith("was 0");
    assertThatThrownBy(() -> ring.locate("k", -1)).hasMessageEndingWith("was -1");
  }

  @Test
  void locate_nullKey_isRejected() {
    assertThatThrownBy(() -> ring(nodes(3)).locate(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key must not be null");
  }

  @Test
  void without_unknownId_isRejected() {
    assertThatThrownBy(() -> ring(nodes(3)).without("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no node with id \"nope\" in the ring");
  }
}
