package io.github.chash.ring;

class MaglevRingTest extends AbstractRingContractTest {
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
