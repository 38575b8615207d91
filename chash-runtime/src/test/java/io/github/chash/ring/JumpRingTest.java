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
  void jump_agreesWithGuavaConsistentHash() {
    // Guava's Hashing.consistentHash implements the same Lamping-Veach algorithm and LCG.
    java.util.Random random = new java.util.Random(11);
    for (int i = 0; i < 100_000; i++) {
      long key = i < 1000 ? i : random.nextLong();
      int buckets = 1 + random.nextInt(i % 2 == 0 ? 20 : 5000);
      assertThat(JumpRing.jump(key, buckets))
          .as("key %s, %s buckets", key, buckets)
          .isEqualTo(com.google.common.hash.Hashing.consistentHash(key, buckets));
    }
  }

  @Test
  void jump_growingByOneBucket_movesKeysOnlyToTheNewBucket() {
    for (long key = 0; key < 10_000; key++) {
      int before = JumpRing.jump(key * 0x9E3779B97F4A7C15L, 100);
      int after = JumpRing.jump(key * 0x9E3779B97F4A7C15L, 101);
      assertThat(after == before || after == 100).isTrue();
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
        .hasMessage(
            "weight of node \"b\" must be 1 for algorithm jump (jump knows buckets, not weights),"
                + " was 2");
  }
}
