package io.github.chash.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.PositionMap;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeySamplerTest {
  private static List<Node> nodes(int count) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      nodes.add(Node.of("cache-" + i, 1 + i % 3));
    }
    return nodes;
  }

  private static void assertSameCountsAsLocate(Ring ring, KeySource keys) {
    int n = keys.size();
    assertThat(n).isGreaterThanOrEqualTo(KeySampler.SORTED_COUNT_MIN);
    long[] expected = new long[ring.size()];
    StringBuilder scratch = new StringBuilder();
    for (int i = 0; i < n; i++) {
      expected[ring.nodes().indexOf(ring.locate(keys.key(i, scratch)))]++;
    }
    PositionMap map = PositionMap.of(ring).orElseThrow();
    assertThat(KeySampler.countByPosition(map, ring.size(), keys, n)).isEqualTo(expected);
    assertThat(KeySampler.count(ring, keys, n)).isEqualTo(expected);
    assertThat(KeySampler.countByLocate(ring, keys, n)).isEqualTo(expected);
  }

  @Test
  void count_ringsWithPositionMaps_sameCountsAsLocatingEveryKey() {
    KeySource keys = KeySource.pattern("users:{n}", 100_000);
    for (String hash : List.of("xxh3", "murmur3", "fnv1-32", "jdk")) {
      RingSettings ring = RingSettings.builder().hash(hash).pointsPerWeight(100).build();
      assertSameCountsAsLocate(Rings.create(ring, nodes(50)), keys);
    }
    assertSameCountsAsLocate(Rings.create(RingSettings.of(Algorithm.KETAMA), nodes(40)), keys);
    assertSameCountsAsLocate(Rings.create(RingSettings.of(Algorithm.MAGLEV), nodes(30)), keys);
  }

  @Test
  void count_listedKeysWithDuplicatesAndNonAscii_sameCountsAsLocatingEveryKey() {
    List<String> listed = new ArrayList<>();
    for (int i = 0; i < 70_000; i++) {
      listed.add(i % 7 == 0 ? "clé-" + (i % 1000) : "k" + i);
    }
    Ring ring = Rings.create(RingSettings.defaults(), nodes(20));
    assertSameCountsAsLocate(ring, KeySource.of(listed));
  }

  @Test
  void sortUnsigned_ordersAsUnsignedValues() {
    java.util.Random random = new java.util.Random(3);
    int[] values = new int[10_000];
    for (int i = 0; i < values.length; i++) {
      values[i] = i % 5 == 0 ? random.nextInt(4) - 2 : random.nextInt();
    }
    long[] expected = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      expected[i] = values[i] & 0xffffffffL;
    }
    java.util.Arrays.sort(expected);
    int[] sorted = KeySampler.sortUnsigned(values.clone());
    long[] actual = new long[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      actual[i] = sorted[i] & 0xffffffffL;
    }
    assertThat(actual).isEqualTo(expected);
  }
}
