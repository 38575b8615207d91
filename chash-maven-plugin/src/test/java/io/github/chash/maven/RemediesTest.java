package io.github.chash.maven;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.ring.RingSettings;
import org.junit.jupiter.api.Test;

class RemediesTest {

  @Test
  void suggestedPoints_growWithTheNodeCountAndAStricterLimit_roundAndCapped() {
    RingSettings three = RingSettings.builder().pointsPerWeight(3).build();
    int few = Remedies.suggestedPoints(3, 1.2, three);
    int many = Remedies.suggestedPoints(1000, 1.2, three);
    int strict = Remedies.suggestedPoints(3, 1.05, three);
    assertThat(few).isEqualTo(200);
    assertThat(many).isGreaterThan(few);
    assertThat(strict).isGreaterThan(few);
    // at least twice what is configured, at most what the ring accepts
    assertThat(
            Remedies.suggestedPoints(3, 1.2, RingSettings.builder().pointsPerWeight(1000).build()))
        .isEqualTo(2000);
    assertThat(Remedies.suggestedPoints(10_000, 1.01, three))
        .isEqualTo(RingSettings.MAX_POINTS_PER_WEIGHT);
  }

  @Test
  void forMovement_rename_saysToKeepTheOldId() {
    ReportData data =
        Reports.withBaseline(
            "nodes: [{id: a}, {id: b}, {id: c}]\n", "nodes: [{id: a}, {id: b}, {id: c2}]\n", 1000);
    assertThat(data.baseline().violation())
        .contains("no key needs to move")
        .contains("fix: keep the old node id (a node's points are derived from its id)")
        .contains("if the change is intended, merge it");
  }

  @Test
  void forMovement_hashChange_saysToRestoreIt() {
    ReportData data =
        Reports.withBaseline(
            Reports.nodes(4, false), "ring: {hash: murmur3}\n" + Reports.nodes(4, false), 10_000);
    assertThat(data.baseline().violation())
        .contains("cause: hash changed from xxh3 to murmur3")
        .contains("fix: restore the hash unless the change is intended");
  }
}
