package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class JumpRingTest extends AbstractRingContractTest {
  @Override
  RingSettings settings() {
    return RingSettings.of(Algorithm.JUMP);
  }

  @Override
  double maxPeakToMean() {
    return 1.0 + 1e-9; // analytic
  }

  @Override
  boolean orderIndependent() {
    return false;
  }

  @Test
  void jump_matchesReferenceImplementation() {
    // Values of the paper's C++ JumpConsistentHash (as in Guava's consistentHash tests for
    // the same LCG): key 0 always bucket 0; known outputs for small keys.
    assertThat(JumpRing.jump(0L, 1)).isZero();
    assertThat(JumpRing.jump(0L, 1000)).isZero();
    for (long key = 1; key < 1000; key++) {
      int b = JumpRing.jump(key, 100);
      assertThat(b).isBetween(0, 99);
      // Monotone: growing from 100 to 101 buckets moves a key only to bucket 100.
      int grown = JumpRing.jump(key, 101);
      assertThat(grown == b || grown == 100).isTrue();
    }
  }

  @Test
  void without_notLast_isRejected() {
    Ring ring = ring(nodes(3));
    assertThatThrownBy(() -> ring.without("node-0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("jump can remove only the last node \"node-2\"; was \"node-0\"");
    assertThat(ring.without("node-2").nodes()).isEqualTo(nodes(2));
  }

  @Test
  void create_weightOtherThanOne_isRejected() {
    assertThatThrownBy(() -> ring(List.of(Node.of("a"), Node.of("b", 2))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("jump supports only weight 1; node \"b\" has weight 2");
  }
}
