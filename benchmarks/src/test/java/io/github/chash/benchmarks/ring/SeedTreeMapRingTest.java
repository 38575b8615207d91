package io.github.chash.benchmarks.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeedTreeMapRingTest {

  @Test
  void hash_matchesTheSeedArticlesOutput() {
    assertThat(SeedTreeMapRing.hash("太阳")).isEqualTo(1977106057);
    assertThat(SeedTreeMapRing.hash("月亮")).isEqualTo(1132637661);
    assertThat(SeedTreeMapRing.hash("星星")).isEqualTo(880019273);
    assertThat(SeedTreeMapRing.hash("192.168.0.0:111")).isEqualTo(575774686);
  }

  @Test
  void get_returnsTheServerOfTheFirstVirtualNodeClockwise() {
    List<String> servers = List.of("192.168.0.0:111", "192.168.0.1:111", "192.168.0.2:111");
    SeedTreeMapRing ring = new SeedTreeMapRing(servers);
    assertThat(ring.points()).isBetween(470, 480);
    for (String key : BenchKeys.keys(1000)) {
      int hash = SeedTreeMapRing.hash(key);
      String expected = null;
      int best = Integer.MAX_VALUE;
      int lowest = Integer.MAX_VALUE;
      String lowestServer = null;
      for (String server : servers) {
        for (int i = 0; i < SeedTreeMapRing.VIRTUAL_NODES; i++) {
          int point = SeedTreeMapRing.hash(server + "&&VN" + i);
          if (point >= hash && point < best) {
            best = point;
            expected = server;
          }
          if (point < lowest) {
            lowest = point;
            lowestServer = server;
          }
        }
      }
      assertThat(ring.get(key)).as(key).isEqualTo(expected == null ? lowestServer : expected);
    }
  }
}
