package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PositionMapTest {

  private static List<Node> nodes(int n) {
    List<Node> list = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      list.add(Node.of("cache-" + i, 1 + i % 3));
    }
    return list;
  }

  /** The owner the map gives a position, by binary search over the segment ends. */
  private static int ownerAt(PositionMap map, long position) {
    int lo = 0;
    int hi = map.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (map.end(mid) < position) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return map.owner(lo);
  }

  private static void assertMapRoutesAsRing(
      Ring ring, java.util.function.ToLongFunction<String> position) {
    assertMapRoutesAsRing(ring, position, PositionMap.POSITIONS);
  }

  /**
   * As above; {@code positionCount} is how many positions keys can take (less than 2^32 for a hash
   * such as fnv1-32), over which the ring reports its ownership.
   */
  private static void assertMapRoutesAsRing(
      Ring ring, java.util.function.ToLongFunction<String> position, long positionCount) {
    PositionMap map = PositionMap.of(ring).orElseThrow();
    assertThat(map.end(map.size() - 1)).isEqualTo(PositionMap.POSITIONS - 1);
    for (int i = 1; i < map.size(); i++) {
      assertThat(map.end(i)).isGreaterThan(map.end(i - 1));
    }
    for (int k = 0; k < 20_000; k++) {
      String key = "key:" + k;
      assertThat(ring.nodes().get(ownerAt(map, position.applyAsLong(key))))
          .as(key)
          .isEqualTo(ring.locate(key));
    }
    // the segments' lengths within the key positions are the ownership the ring reports (arcs;
    // slots for maglev)
    double[] share = new double[ring.size()];
    long previous = -1;
    for (int i = 0; i < map.size(); i++) {
      long end = Math.min(map.end(i), positionCount - 1);
      share[map.owner(i)] += Math.max(0, end - previous) / (double) positionCount;
      previous = Math.max(previous, end);
    }
    for (int i = 0; i < ring.size(); i++) {
      assertThat(share[i]).isCloseTo(ring.ownership().get(ring.nodes().get(i).id()), within(1e-5));
    }
  }

  @Test
  void of_ringRoutesEveryKeyAsLocate() {
    for (String hash : List.of("xxh3", "murmur3", "fnv1-32")) {
      HashFunction h = HashFunctions.forName(hash);
      Ring ring =
          Rings.create(RingSettings.builder().hash(h).pointsPerWeight(50).build(), nodes(7));
      assertMapRoutesAsRing(
          ring, key -> Hashes.top32(h, h.hash(key)) & 0xffffffffL, Hashes.positionCount(h));
      assertThat(PositionMap.of(ring).orElseThrow().keyPosition()).isEqualTo("top32(" + hash + ")");
    }
  }

  @Test
  void of_ketamaRoutesEveryKeyAsLocate() {
    Ring ring = Rings.create(RingSettings.of(Algorithm.KETAMA), nodes(5));
    assertMapRoutesAsRing(
        ring, key -> Hashes.littleEndian(Hashes.md5Digest(key), 0, 4) & 0xffffffffL);
    assertThat(PositionMap.of(ring).orElseThrow().keyPosition()).isEqualTo("ketama-md5");
  }

  @Test
  void of_maglevRoutesEveryKeyAsLocate() {
    HashFunction h = HashFunctions.xxh3();
    Ring ring = Rings.create(RingSettings.of(Algorithm.MAGLEV), nodes(6));
    assertMapRoutesAsRing(ring, key -> Hashes.top32(h, h.hash(key)) & 0xffffffffL);
    assertThat(PositionMap.of(ring).orElseThrow().keyPosition()).isEqualTo("top32(xxh3)");
  }

  @Test
  void of_rendezvousJumpAndEmptyHaveNone() {
    assertThat(PositionMap.of(Rings.create(RingSettings.of(Algorithm.RENDEZVOUS), nodes(3))))
        .isEqualTo(Optional.empty());
    List<Node> ones = List.of(Node.of("a"), Node.of("b"));
    assertThat(PositionMap.of(Rings.create(RingSettings.of(Algorithm.JUMP), ones))).isEmpty();
    assertThat(PositionMap.of(Rings.create(RingSettings.defaults(), List.of()))).isEmpty();
  }
}
