package io.github.chash.ring;

import java.util.Map;

class MaglevRingTest extends AbstractRingContractTest {
  @Override
  Map<RingSettings, Long> pinnedPlacements() {
    return java.util.Map.ofEntries(
        java.util.Map.entry(
            RingSettings.builder().algorithm(Algorithm.MAGLEV).hash("xxh3").build(),
            0x9d8d502e870b3f8dL),
        java.util.Map.entry(
            RingSettings.builder().algorithm(Algorithm.MAGLEV).hash("murmur3").build(),
            0xb81dd080cdef36a1L),
        java.util.Map.entry(
            RingSettings.builder().algorithm(Algorithm.MAGLEV).hash("md5").build(),
            0x9731da19b169db48L));
  }

  @Override
  RingSettings settings() {
    return RingSettings.of(Algorithm.MAGLEV);
  }

  @Override
  double maxPeakToMean() {
    return 1.01;
  }

  @Override
  boolean minimalMovement() {
    return false;
  }
}
