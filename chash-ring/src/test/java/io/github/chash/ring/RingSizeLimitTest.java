package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Regression tests: huge weights once tried to allocate gigabytes or overflowed an int. */
class RingSizeLimitTest {

  @Test
  void create_ringWithHugeWeight_failsNamingThePointCountInsteadOfAllocating() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Rings.create(RingSettings.defaults(), List.of(Node.of("a", 2_000_000))))
        .withMessage(
            "the ring would need 2000000000 virtual points; at most 32000000 are allowed (8 bytes"
                + " each in every JVM): lower pointsPerWeight or the weights, or use algorithm"
                + " maglev, which needs no virtual points");
  }

  @Test
  void create_ketamaWithMaxIntWeight_doesNotOverflowTheTotalWeight() {
    Ring ring =
        Rings.create(
            RingSettings.of(Algorithm.KETAMA),
            List.of(Node.of("10.0.0.1:11211", Integer.MAX_VALUE), Node.of("10.0.0.2:11211", 1)));

    assertThat(ring.locate("any key").id()).isEqualTo("10.0.0.1:11211");
    assertThat(ring.ownership().get("10.0.0.1:11211")).isEqualTo(1.0);
  }
}
