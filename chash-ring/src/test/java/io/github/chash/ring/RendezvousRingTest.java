package io.github.chash.ring;

import java.util.Map;

class RendezvousRingTest extends AbstractRingContractTest {
  @Override
  Map<RingSettings, Long> pinnedPlacements() {
    return java.util.Map.ofEntries(
        java.util.Map.entry(
            RingSettings.builder().algorithm(Algorithm.RENDEZVOUS).hash("xxh3").build(),
            0xe8de82a17d7ba7aaL),
        java.util.Map.entry(
            RingSettings.builder().algorithm(Algorithm.RENDEZVOUS).hash("murmur3").build(),
            0xafa0ab2e07f2f752L));
  }

  @Override
  RingSettings settings() {
    return RingSettings.of(Algorithm.RENDEZVOUS);
  }

  @Override
  double maxPeakToMean() {
    return 1.0 + 1e-9; // analytic
  }
}
