package io.github.chash.benchmarks.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class QualityReportTest {

  @Test
  void measure_seesTheSeedRingMoveOnlyWhatAConsistentHashMoves() {
    Contender seed = new Contender("seed", ids -> new SeedTreeMapRing(ids)::get);
    QualityReport.Result r = QualityReport.measure(seed, BenchKeys.keys(100_000));
    assertThat(r.hasExact()).isFalse();
    assertThat(r.joinStray()).isZero();
    assertThat(r.leaveStray()).isZero();
    assertThat(r.joinMoved()).isCloseTo(QualityReport.JOIN_IDEAL, within(0.02));
    assertThat(r.sampledPeak()).isGreaterThan(1.0);
    assertThat(r.sampledMin()).isLessThan(1.0);
  }

  @Test
  void measure_countsMovesBetweenSurvivorsAsStray() {
    // Modulo hashing reshuffles nearly everything: most moves are between surviving nodes.
    Contender modulo =
        new Contender("modulo", ids -> key -> ids.get(Math.floorMod(key.hashCode(), ids.size())));
    QualityReport.Result r = QualityReport.measure(modulo, BenchKeys.keys(100_000));
    assertThat(r.joinMoved()).isGreaterThan(0.8);
    assertThat(r.joinStray()).isGreaterThan(50_000);
    assertThat(r.leaveStray()).isGreaterThan(50_000);
  }

  @Test
  void table_printsExactSharesOnlyWhereTheAlgorithmHasThem() {
    List<QualityReport.Result> rows =
        List.of(
            new QualityReport.Result("a", 1.05, 0.95, 1.06, 0.94, 0.0909, 0, 0.01, 0),
            new QualityReport.Result("b", Double.NaN, Double.NaN, 1.2, 0.8, 0.1, 3, 0.02, 4));
    String table = QualityReport.table(rows);
    assertThat(table).contains("| a | 1.0500 | 0.9500 | 1.0600 | 0.9400 |");
    assertThat(table).contains("| b | n/a | n/a | 1.2000 | 0.8000 |");
  }
}
