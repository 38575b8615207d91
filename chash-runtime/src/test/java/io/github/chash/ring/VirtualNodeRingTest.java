package io.github.chash.ring;

class VirtualNodeRingTest extends AbstractRingContractTest {
  @Override
  RingSettings settings() {
    return RingSettings.defaults();
  }

  @Override
  double maxPeakToMean() {
    return 1.10;
  }
}
