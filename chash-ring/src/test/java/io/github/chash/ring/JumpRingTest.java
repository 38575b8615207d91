package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JumpRingTest extends AbstractRingContractTest {
  @Override
  Map<RingSettings, Long> pinnedPlacements() {
    return java.util.Map.ofEntries(
        java.util.Map.entry(
            RingSettings.builder().algorithm(Algorithm.JUMP).hash("xxh3").build(),
            0xd1c29746be6358c5L),
        java.util.Map.entry(
            RingSettings.builder().algorithm(Algorithm.JUMP).hash("murmur3").build(),
            0xafeae480c868f3e4L));
  }

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
  void locate_isGuavaConsistentHashOverTheKeysHash() {
    // what a Guava user wrote: consistentHash(murmur3_128().hashString(key, UTF_8), n); the
    // HashCode's padToLong() is the low 64 bits, chash's murmur3
    RingSettings murmur3 = RingSettings.builder().algorithm(Algorithm.JUMP).hash("murmur3").build();
    for (int n : new int[] {1, 3, 8, 25, 50, 1000}) {
      Ring ring = Rings.create(murmur3, nodes(n));
      Ring xxh3 = ring(nodes(n));
      for (int i = 0; i < 20_000; i++) {
        String key = i % 10 == 0 ? "ключ:" + i : key(i);
        com.google.common.hash.HashCode hash =
            com.google.common.hash.Hashing.murmur3_128()
                .hashString(key, java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ring.locateIndex(key))
            .as("%s nodes, key %s", n, key)
            .isEqualTo(com.google.common.hash.Hashing.consistentHash(hash, n));
        assertThat(xxh3.locateIndex(key))
            .isEqualTo(
                com.google.common.hash.Hashing.consistentHash(HashFunctions.xxh3().hash(key), n));
      }
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
