package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class VirtualNodeRingTest extends AbstractRingContractTest {
  @Override
  RingSettings settings() {
    return RingSettings.defaults();
  }

  @Override
  double maxPeakToMean() {
    return 1.10;
  }

  @Test
  void points_areNamedIdHashIndex_atTop32BitsOfTheHash() {
    // One point each: "a#0" and "b#0". A key belongs to the first point at or after its position.
    RingSettings one = RingSettings.builder().pointsPerWeight(1).build();
    Ring ring = Rings.create(one, List.of(Node.of("a"), Node.of("b")));
    HashFunction xxh3 = HashFunctions.xxh3();
    long a = xxh3.hash("a#0") >>> 32;
    long b = xxh3.hash("b#0") >>> 32;
    for (int i = 0; i < 1000; i++) {
      String key = "k" + i;
      long h = xxh3.hash(key) >>> 32;
      long low = Math.min(a, b);
      long high = Math.max(a, b);
      String lowId = a < b ? "a" : "b";
      String highId = a < b ? "b" : "a";
      String expected = h <= low || h > high ? lowId : highId;
      assertThat(ring.locate(key).id()).as(key).isEqualTo(expected);
    }
    double share = (Math.max(a, b) - Math.min(a, b)) / 0x1p32;
    assertThat(ring.ownership().get(a < b ? "b" : "a")).isEqualTo(share);
  }

  @Test
  void hash32_positionsUseTheWholeValue() {
    // fnv1-32 and jdk give 32-bit values: the position is the value itself, so equal settings and
    // nodes still agree key by key with the seeds' hash.
    RingSettings jdk = RingSettings.builder().hash("jdk").pointsPerWeight(1).build();
    Ring ring = Rings.create(jdk, List.of(Node.of("x")));
    assertThat(ring.locate("anything").id()).isEqualTo("x");
    assertThat(ring.ownership()).containsEntry("x", 1.0);
  }
}
