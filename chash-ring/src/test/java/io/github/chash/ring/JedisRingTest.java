package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class JedisRingTest extends AbstractRingContractTest {
  @Override
  Map<RingSettings, Long> pinnedPlacements() {
    return java.util.Map.ofEntries(
        java.util.Map.entry(RingSettings.of(Algorithm.JEDIS), 0xa5a86a4ec04a263aL),
        java.util.Map.entry(
            RingSettings.builder().algorithm(Algorithm.JEDIS).keyTags(true).build(),
            0xa5a86a4ec04a263aL));
  }

  @Override
  RingSettings settings() {
    return RingSettings.of(Algorithm.JEDIS);
  }

  @Override
  double maxPeakToMean() {
    return 1.25; // 160 points a node, as Jedis (measured 1.19)
  }

  @Override
  boolean orderIndependent() {
    return false;
  }

  /**
   * Jedis 3.10.0's {@code Sharded.initialize} (this) and {@code getShardInfo} (below) written out
   * with a {@code TreeMap}, as the specification the ring's arrays must agree with.
   */
  private static TreeMap<Long, Node> jedisTreeMap(List<Node> shards) {
    TreeMap<Long, Node> points = new TreeMap<>();
    for (int i = 0; i != shards.size(); ++i) {
      Node shard = shards.get(i);
      int count = 160 * shard.weight();
      for (int n = 0; n < count; n++) {
        String name =
            shard.name().isEmpty() ? "SHARD-" + i + "-NODE-" + n : shard.name().get() + "*" + n;
        points.put(murmur(name), shard);
      }
    }
    return points;
  }

  private static String treeMapShard(TreeMap<Long, Node> points, String key, boolean keyTags) {
    if (keyTags) {
      Matcher m = Pattern.compile("\\{(.+?)\\}").matcher(key);
      if (m.find()) {
        key = m.group(1);
      }
    }
    Map.Entry<Long, Node> at = points.ceilingEntry(murmur(key));
    return (at != null ? at : points.firstEntry()).getValue().id();
  }

  private static long murmur(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    return MurmurHash64A.hash(bytes, 0, bytes.length, MurmurHash64A.JEDIS_SEED);
  }

  private static List<Node> mixedShards() {
    List<Node> shards = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      int weight = 1 + i % 3;
      String id = "10.0.0." + (12 - i) + ":6379";
      shards.add(i % 4 == 1 ? Node.of(id, weight, "shard-" + i) : Node.of(id, weight));
    }
    return shards;
  }

  @Test
  void locate_agreesWithJedisTreeMap_namedUnnamedWeighted() {
    List<Node> shards = mixedShards();
    Ring ring = Rings.create(settings(), shards);
    TreeMap<Long, Node> jedis = jedisTreeMap(shards);
    for (int k = 0; k < 20_000; k++) {
      String key = k % 7 == 0 ? "ключ:" + k : "user:" + k;
      assertThat(ring.locate(key).id()).as(key).isEqualTo(treeMapShard(jedis, key, false));
    }
  }

  @Test
  void locate_keyTags_hashOnlyTheFirstTagAsJedisDefaultPattern() {
    List<Node> shards = mixedShards();
    TreeMap<Long, Node> jedis = jedisTreeMap(shards);
    Ring tagged =
        Rings.create(
            RingSettings.builder().algorithm(Algorithm.JEDIS).keyTags(true).build(), shards);
    String[] keys = {"user:{42}:name", "{42}", "a{}b}c", "x{y\nz}w", "{a}{b}", "no tag", "{}", "{"};
    for (String key : keys) {
      assertThat(tagged.locate(key).id()).as(key).isEqualTo(treeMapShard(jedis, key, true));
    }
    for (int k = 0; k < 2000; k++) {
      String key = "order:{" + k + "}:" + (k * 31);
      assertThat(tagged.locate(key)).isEqualTo(tagged.locate("{" + k + "}"));
      assertThat(tagged.locate(key).id()).isEqualTo(treeMapShard(jedis, key, true));
    }
  }

  @Test
  void create_keepsTheConfigOrder_unnamedShardsMoveWithTheirPosition() {
    List<Node> shards = List.of(Node.of("b"), Node.of("a"), Node.of("c"));
    Ring ring = Rings.create(settings(), shards);
    assertThat(ring.nodes()).isEqualTo(shards);
    Ring swapped = Rings.create(settings(), List.of(Node.of("a"), Node.of("b"), Node.of("c")));
    int moved = 0;
    for (int k = 0; k < 3000; k++) {
      if (!ring.locate("k" + k).equals(swapped.locate("k" + k))) {
        moved++;
      }
    }
    // a and b swap their points: every key of theirs moves
    assertThat(moved).isGreaterThan(1500);
  }

  @Test
  void create_namedShards_keepTheirKeysWhenReordered() {
    List<Node> shards = List.of(Node.of("b", 1, "B"), Node.of("a", 1, "A"), Node.of("c", 2, "C"));
    Ring ring = Rings.create(settings(), shards);
    Ring reordered = Rings.create(settings(), List.of(shards.get(2), shards.get(0), shards.get(1)));
    for (int k = 0; k < 3000; k++) {
      assertThat(reordered.locate("k" + k)).isEqualTo(ring.locate("k" + k));
    }
  }

  @Test
  void create_duplicateName_isRejected() {
    assertThatThrownBy(
            () -> Rings.create(settings(), List.of(Node.of("a", 1, "s"), Node.of("b", 1, "s"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("duplicate node name \"s\" (node \"b\")");
  }

  @Test
  void settings_reportTheFixedHashAndPoints() {
    RingSettings s = RingSettings.builder().algorithm(Algorithm.JEDIS).pointsPerWeight(7).build();
    assertThat(s.hash().name()).isEqualTo("murmur64a-jedis");
    assertThat(s.pointsPerWeight()).isEqualTo(160);
    assertThat(s.keyTags()).isFalse();
    assertThat(RingSettings.builder().keyTags(true).build().keyTags())
        .as("ignored by ring")
        .isFalse();
  }
}
