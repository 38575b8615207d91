package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KetamaCompatTest {
  private static List<Node> equal(int n) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nodes.add(Node.of("n" + i));
    }
    return nodes;
  }

  @Test
  void digestCounts_weightedFormula_gives39ToEqualServersAt207Counts() {
    int thirtyNine = 0;
    for (int n = 1; n <= 2000; n++) {
      int[] twemproxy = KetamaCompat.TWEMPROXY.digestCounts(equal(n), 160);
      assertThat(KetamaCompat.SPYMEMCACHED_WEIGHTED.digestCounts(equal(n), 160))
          .isEqualTo(twemproxy);
      assertThat(KetamaCompat.SPYMEMCACHED.digestCounts(equal(n), 160)).containsOnly(40);
      if (twemproxy[0] == 39) {
        thirtyNine++;
      }
    }
    assertThat(thirtyNine).isEqualTo(207);
    assertThat(KetamaCompat.TWEMPROXY.digestCounts(equal(25), 160)).containsOnly(39);
    assertThat(KetamaCompat.LIBKETAMA.digestCounts(equal(25), 160)).containsOnly(40);
    assertThat(KetamaCompat.LIBKETAMA.digestCounts(equal(61), 160)).containsOnly(39);
  }

  @Test
  void pointName_twemproxyLeavesOutPort11211_nameWinsEverywhere() {
    assertThat(KetamaCompat.TWEMPROXY.pointName(Node.of("10.0.0.1:11211"))).isEqualTo("10.0.0.1");
    assertThat(KetamaCompat.TWEMPROXY.pointName(Node.of("10.0.0.1:6379")))
        .isEqualTo("10.0.0.1:6379");
    assertThat(KetamaCompat.SPYMEMCACHED.pointName(Node.of("10.0.0.1:11211")))
        .isEqualTo("10.0.0.1:11211");
    for (KetamaCompat c : KetamaCompat.values()) {
      assertThat(c.pointName(Node.of("cache-1", 1, "alpha"))).isEqualTo("alpha");
    }
  }

  @Test
  void create_twoNodesHashingAsOneServer_isRejected() {
    RingSettings twemproxy =
        RingSettings.builder().algorithm(Algorithm.KETAMA).compat(KetamaCompat.TWEMPROXY).build();
    assertThatThrownBy(
            () -> Rings.create(twemproxy, List.of(Node.of("a:11211"), Node.of("b", 1, "a"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "nodes \"a:11211\" and \"b\" would both hash as server \"a\" under ketama compat"
                + " twemproxy");
  }

  @Test
  void settings_fixedPointsForTwemproxyAndLibketama_compatIgnoredElsewhere() {
    RingSettings lib =
        RingSettings.builder()
            .algorithm(Algorithm.KETAMA)
            .compat(KetamaCompat.LIBKETAMA)
            .pointsPerWeight(400)
            .build();
    assertThat(lib.pointsPerWeight()).isEqualTo(160);
    assertThat(RingSettings.builder().compat(KetamaCompat.TWEMPROXY).build())
        .isEqualTo(RingSettings.defaults());
    assertThatThrownBy(() -> KetamaCompat.fromConfigName("nope"))
        .hasMessage(
            "compat must be one of spymemcached, spymemcached-weighted, twemproxy, libketama; was"
                + " \"nope\"");
  }
}
