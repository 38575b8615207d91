package io.github.chash.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.chash.analysis.ChangeCause.Kind;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

class BaselineComparisonTest {
  private static final KeySource KEYS = KeySource.pattern("user:{n}", 400_000);

  /** A config of {@code n} Redis nodes cache-0.. on ports 6380.., weights by index. */
  private static ChashConfig config(
      String ring, int n, IntPredicate skip, IntUnaryOperator weight, String... renames) {
    StringBuilder yaml = new StringBuilder("ring:\n").append(ring.indent(2)).append("nodes:\n");
    for (int i = 0; i < n; i++) {
      if (skip.test(i)) {
        continue;
      }
      String id = "cache-" + i;
      for (int r = 0; r + 1 < renames.length; r += 2) {
        if (renames[r].equals(id)) {
          id = renames[r + 1];
        }
      }
      yaml.append("  - id: ")
          .append(id)
          .append('\n')
          .append("    type: redis\n")
          .append("    uri: redis://127.0.0.1:")
          .append(6380 + i)
          .append('\n')
          .append("    weight: ")
          .append(weight.applyAsInt(i))
          .append('\n');
    }
    return ChashConfigs.parse(yaml.toString(), "chash.yaml");
  }

  private static ChashConfig config(String ring, int n) {
    return config(ring, n, i -> false, i -> 1);
  }

  private static BaselineReport compare(ChashConfig before, ChashConfig after) {
    return BaselineComparison.compare(before, "chash-baseline.yaml", after, KEYS);
  }

  @Test
  void compare_unchangedConfig_movesNothingExactly_onTheGivenRingAlone() {
    ChashConfig config = config("algorithm: maglev", 7);
    io.github.chash.ring.Ring ring =
        io.github.chash.ring.Rings.create(config.ring(), config.ringNodes());
    // the same nodes in another file order are the same ring
    ChashConfig reordered = config("algorithm: maglev", 7, i -> false, i -> 1);

    BaselineReport r =
        BaselineComparison.compare(reordered, "chash-baseline.yaml", config, ring, KEYS);

    assertThat(r.movedFraction()).isZero();
    assertThat(r.estimate()).isEqualTo(Estimate.EXACT);
    assertThat(r.method()).isEqualTo("exact: the same ring settings and nodes");
    assertThat(r.causes()).isEmpty();
    assertThat(r.nodes()).allSatisfy(n -> assertThat(n.before()).isEqualTo(n.after()));
    assertThat(r.nodes().stream().mapToDouble(NodeMovement::after).sum())
        .isCloseTo(1.0, within(1e-9));
  }

  @Test
  void samePlacement_needsEqualSettingsAndNodes_andTheOrderForJump() {
    assertThat(
            BaselineComparison.samePlacement(
                config("algorithm: ring", 4), config("algorithm: ring", 4)))
        .isTrue();
    assertThat(
            BaselineComparison.samePlacement(
                config("algorithm: ring", 4), config("algorithm: ring", 4, i -> false, i -> 2)))
        .isFalse();
    assertThat(
            BaselineComparison.samePlacement(
                config("algorithm: ring", 4), config("{algorithm: ring, hash: murmur3}", 4)))
        .isFalse();
    ChashConfig ab =
        ChashConfigs.parse("ring: {algorithm: jump}\nnodes: [{id: a}, {id: b}]\n", "x");
    ChashConfig ba =
        ChashConfigs.parse("ring: {algorithm: jump}\nnodes: [{id: b}, {id: a}]\n", "x");
    assertThat(BaselineComparison.samePlacement(ab, ab)).isTrue();
    assertThat(BaselineComparison.samePlacement(ab, ba)).isFalse();
  }

  @Test
  void compare_oneNodeJoiningTenMovesAboutOneEleventhExactly() {
    BaselineReport r = compare(config("algorithm: ring", 10), config("algorithm: ring", 11));
    assertThat(r.estimate()).isEqualTo(Estimate.EXACT);
    assertThat(r.sampleKeys()).isZero();
    assertThat(r.idealMoved()).isCloseTo(1.0 / 11, within(1e-12));
    assertThat(r.movedFraction()).isCloseTo(1.0 / 11, within(0.05 / 11));
    // a ring is monotone: what moves is exactly what the new node owns, all of it gained by it
    NodeMovement fresh =
        r.nodes().stream().filter(n -> n.id().equals("cache-10")).findFirst().orElseThrow();
    assertThat(fresh.before()).isZero();
    assertThat(fresh.gained()).isCloseTo(r.movedFraction(), within(1e-12));
    assertThat(fresh.after()).isCloseTo(r.movedFraction(), within(1e-9));
    assertThat(r.flows()).allSatisfy(f -> assertThat(f.to()).isEqualTo("cache-10"));
    assertThat(r.nodes().stream().mapToDouble(NodeMovement::lost).sum())
        .isCloseTo(r.movedFraction(), within(1e-12));
    assertThat(r.causes()).containsExactly(new ChangeCause(Kind.ADDED, "node added: cache-10"));
    assertThat(r.movedOverIdeal()).isCloseTo(1.0, within(0.05));
    assertThat(r.violation(0.2, 1.5)).isNull();
  }

  @Test
  void compare_exactAndSampledAgree() {
    String[][] cases = {
      {"algorithm: ring", "algorithm: ring"},
      {"algorithm: ketama", "algorithm: ketama"},
      {"algorithm: maglev", "algorithm: maglev"},
      {"algorithm: ring", "algorithm: maglev"},
      {"algorithm: ring\npointsPerWeight: 100", "algorithm: ring\npointsPerWeight: 300"},
      // fnv1-32 keys take only 2^31 positions: exact shares must not count the other half
      {"algorithm: ring\nhash: fnv1-32", "algorithm: ring\nhash: fnv1-32"},
    };
    for (String[] c : cases) {
      ChashConfig before = config(c[0], 8);
      ChashConfig after = config(c[1], 9, i -> i == 3, i -> i == 5 ? 2 : 1);
      BaselineReport exact = BaselineComparison.compare(before, "b", after, KEYS, true);
      BaselineReport sampled = BaselineComparison.compare(before, "b", after, KEYS, false);
      assertThat(exact.estimate()).as(c[1]).isEqualTo(Estimate.EXACT);
      assertThat(sampled.estimate()).isEqualTo(Estimate.SAMPLED);
      assertThat(sampled.sampleKeys()).isEqualTo(KEYS.size());
      // 400k keys: a binomial standard deviation below 0.08%; allow for keys clustering on arcs
      assertThat(sampled.movedFraction()).as(c[1]).isCloseTo(exact.movedFraction(), within(0.005));
      for (int i = 0; i < exact.nodes().size(); i++) {
        NodeMovement e = exact.nodes().get(i);
        NodeMovement s = sampled.nodes().get(i);
        assertThat(s.id()).isEqualTo(e.id());
        assertThat(s.gained()).as(e.id()).isCloseTo(e.gained(), within(0.005));
        assertThat(s.lost()).as(e.id()).isCloseTo(e.lost(), within(0.005));
      }
      assertThat(exact.idealMoved()).isEqualTo(sampled.idealMoved());
    }
  }

  @Test
  void compare_identicalConfigsMoveNothing() {
    BaselineReport r = compare(config("algorithm: ring", 5), config("algorithm: ring", 5));
    assertThat(r.movedFraction()).isZero();
    assertThat(r.idealMoved()).isZero();
    assertThat(r.movedOverIdeal()).isEqualTo(1.0);
    assertThat(r.causes()).isEmpty();
    assertThat(r.causeText()).isEqualTo("no change");
    assertThat(r.flows()).isEmpty();
    assertThat(r.violation(0.01, 1.0)).isNull();
  }

  @Test
  void compare_hashChangeMovesAsManyAsRandomAndNamesTheHash() {
    BaselineReport r =
        compare(
            config("algorithm: ring\nhash: xxh3", 10),
            config("algorithm: ring\nhash: murmur3", 10));
    assertThat(r.estimate()).isEqualTo(Estimate.SAMPLED);
    assertThat(r.method()).contains("top32(xxh3) before, top32(murmur3) now");
    assertThat(r.causes())
        .containsExactly(new ChangeCause(Kind.HASH, "hash changed from xxh3 to murmur3"));
    assertThat(r.idealMoved()).isZero();
    assertThat(r.randomMoved()).isCloseTo(0.9, within(1e-12));
    assertThat(r.movedFraction()).isCloseTo(0.9, within(0.02));
    assertThat(r.asBadAsRandom()).isTrue();
    assertThat(r.movedOverIdeal()).isInfinite();
    assertThat(r.violation(0.2, null))
        .matches(
            "key movement against baseline chash-baseline\\.yaml: 9\\d\\.\\d% of keys move, as many as"
                + " a random re-placement \\(ideal 0\\.0%, limit 20\\.0%\\); cause: hash changed from"
                + " xxh3 to murmur3");
  }

  @Test
  void compare_renameIsOneNodeWithIdealZero() {
    BaselineReport r =
        compare(
            config("algorithm: ring", 10),
            config("algorithm: ring", 10, i -> false, i -> 1, "cache-3", "cache-03"));
    assertThat(r.causes())
        .containsExactly(new ChangeCause(Kind.RENAMED, "node renamed from cache-3 to cache-03"));
    assertThat(r.idealMoved()).isZero();
    NodeMovement renamed =
        r.nodes().stream().filter(n -> n.id().equals("cache-03")).findFirst().orElseThrow();
    assertThat(renamed.previousId()).isEqualTo("cache-3");
    assertThat(r.nodes()).hasSize(10);
    // points derive from the id: the old arcs scatter and the new ones take from everyone
    assertThat(r.movedFraction()).isBetween(0.15, 0.22);
    assertThat(r.flows())
        .noneSatisfy(
            f -> {
              assertThat(f.from()).isEqualTo("cache-3");
              assertThat(f.to()).isEqualTo("cache-03");
            });
    assertThat(r.violation(null, 1.5))
        .matches(
            "key movement against baseline chash-baseline\\.yaml: 1\\d\\.\\d% of keys move \\(ideal"
                + " 0\\.0%, no key needs to move, limit 1\\.50x the ideal\\); cause: node renamed"
                + " from cache-3 to cache-03");
  }

  @Test
  void compare_anotherServerUnderANewIdIsARemovalAndAnAddition() {
    ChashConfig before = config("algorithm: ring", 4);
    ChashConfig after =
        ChashConfigs.parse(
            "nodes:\n"
                + "  - {id: cache-0, type: redis, uri: 'redis://127.0.0.1:6380'}\n"
                + "  - {id: cache-1, type: redis, uri: 'redis://127.0.0.1:6381'}\n"
                + "  - {id: cache-2, type: redis, uri: 'redis://127.0.0.1:6382'}\n"
                + "  - {id: cache-9, type: redis, uri: 'redis://127.0.0.1:6399'}\n",
            "chash.yaml");
    BaselineReport r = compare(before, after);
    assertThat(r.causes())
        .containsExactly(
            new ChangeCause(Kind.ADDED, "node added: cache-9"),
            new ChangeCause(Kind.REMOVED, "node removed: cache-3"));
    assertThat(r.idealMoved()).isCloseTo(0.25, within(1e-12));
    assertThat(r.nodes()).extracting(NodeMovement::previousId).containsOnlyNulls();
  }

  @Test
  void compare_removalIdealIsItsWeightOverTheTotal() {
    BaselineReport r =
        compare(
            config("algorithm: ring", 6, i -> false, i -> i + 1),
            config("algorithm: ring", 6, i -> i == 2, i -> i + 1));
    assertThat(r.idealMoved()).isCloseTo(3.0 / 21, within(1e-12));
    assertThat(r.causes()).containsExactly(new ChangeCause(Kind.REMOVED, "node removed: cache-2"));
    NodeMovement gone = r.nodes().get(r.nodes().size() - 1);
    assertThat(gone.id()).isEqualTo("cache-2");
    assertThat(gone.after()).isZero();
    assertThat(gone.lost()).isCloseTo(r.movedFraction(), within(1e-12));
    assertThat(gone.lost()).isCloseTo(gone.before(), within(1e-9));
  }

  @Test
  void compare_namesReweightPointsAlgorithmAndOrder() {
    BaselineReport reweighted =
        compare(
            config("algorithm: ring", 4),
            config("algorithm: ring", 4, i -> false, i -> i == 1 ? 3 : 1));
    assertThat(reweighted.causes())
        .containsExactly(new ChangeCause(Kind.REWEIGHTED, "node cache-1 re-weighted from 1 to 3"));
    // fair shares 1/4 each -> 3/6 for cache-1: it gains 1/4
    assertThat(reweighted.idealMoved()).isCloseTo(0.25, within(1e-12));

    BaselineReport points =
        compare(
            config("algorithm: ring\npointsPerWeight: 1000", 4),
            config("algorithm: ring\npointsPerWeight: 200", 4));
    assertThat(points.causes())
        .containsExactly(
            new ChangeCause(Kind.POINTS_PER_WEIGHT, "pointsPerWeight changed from 1000 to 200"));
    assertThat(points.estimate()).isEqualTo(Estimate.EXACT);
    assertThat(points.movedFraction()).isGreaterThan(0.5);

    BaselineReport algorithm =
        compare(config("algorithm: ring", 4), config("algorithm: ketama", 4));
    assertThat(algorithm.causes())
        .extracting(ChangeCause::message)
        .containsExactly("algorithm changed from ring to ketama");
    assertThat(algorithm.estimate()).isEqualTo(Estimate.SAMPLED);

    BaselineReport jump =
        compare(
            config("algorithm: jump", 4),
            config(
                "algorithm: jump",
                4,
                i -> false,
                i -> 1,
                "cache-0",
                "x",
                "cache-1",
                "cache-0",
                "x",
                "cache-1"));
    assertThat(jump.causes()).extracting(ChangeCause::kind).containsExactly(Kind.ORDER);
    assertThat(jump.estimate()).isEqualTo(Estimate.SAMPLED);
    assertThat(jump.method()).contains("jump has no map of key positions");
  }

  @Test
  void violation_textForEachLimit() {
    BaselineReport join =
        new BaselineReport(
            "b.yaml",
            0.12,
            0.0909,
            0.9,
            Estimate.EXACT,
            0,
            "exact",
            List.of(
                new ChangeCause(Kind.ADDED, "node added: c"),
                new ChangeCause(Kind.REWEIGHTED, "node a re-weighted from 1 to 2")),
            List.of(),
            List.of());
    assertThat(join.violation(0.1, 1.2))
        .isEqualTo(
            "key movement against baseline b.yaml: 12.0% of keys move (ideal 9.1%, limit 10.0%;"
                + " 1.32x the ideal, limit 1.20x); causes: node added: c; node a re-weighted from 1 to 2");
    assertThat(join.violation(0.2, 1.2))
        .isEqualTo(
            "key movement against baseline b.yaml: 12.0% of keys move (ideal 9.1%, 1.32x the ideal,"
                + " limit 1.20x); causes: node added: c; node a re-weighted from 1 to 2");
    assertThat(join.violation(0.2, 1.5)).isNull();
    assertThat(join.violation(null, null)).isNull();
    assertThat(join.summary())
        .isEqualTo(
            "key movement against baseline b.yaml: 12.00% of keys move (exact), ideal 9.09%, 1.32x"
                + " the ideal; causes: node added: c; node a re-weighted from 1 to 2");
    assertThatThrownBy(() -> join.violation(1.5, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxMoved must be a fraction in (0, 1]; was 1.5");
    assertThatThrownBy(() -> join.violation(null, 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxMovedOverIdeal must be at least 1.0; was 0.5");
  }
}
