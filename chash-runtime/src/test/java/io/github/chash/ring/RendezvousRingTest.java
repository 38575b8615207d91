package io.github.chash.ring;

class RendezvousRingTest extends AbstractRingContractTest {
  @Override
  RingSettings settings() {
    return RingSettings.of(Algorithm.RENDEZVOUS);
  }

  @Override
  double maxPeakToMean() {
    return 1.0 + 1e-9; // analytic
  }
}
