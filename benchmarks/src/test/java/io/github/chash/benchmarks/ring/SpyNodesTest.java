package io.github.chash.benchmarks.ring;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.util.List;
import net.spy.memcached.KetamaNodeLocator;
import org.junit.jupiter.api.Test;

class SpyNodesTest {

  @Test
  void locator_routesLikeChashKetamaForTheSameIds() {
    // The lookup benchmark compares chash ketama with spymemcached on these proxies: they must be
    // doing the same work, i.e. route every key the same way.
    List<String> ids = BenchKeys.nodeIds(50);
    KetamaNodeLocator spy = SpyNodes.locator(ids);
    Ring ketama = Rings.create(RingSettings.of(Algorithm.KETAMA), Contender.nodes(ids));
    for (String key : BenchKeys.keys(20_000)) {
      assertThat(SpyNodes.id(spy.getPrimary(key))).as(key).isEqualTo(ketama.locate(key).id());
    }
  }

  @Test
  void node_answersItsAddressWithoutResolvingAName() {
    assertThat(SpyNodes.node("10.0.1.2:11211").getSocketAddress()).hasToString("/10.0.1.2:11211");
  }

  @Test
  void nodeId_isAnIpv4HostAndPort() {
    assertThat(BenchKeys.nodeId(0)).isEqualTo("10.0.0.0:11211");
    assertThat(BenchKeys.nodeId(258)).isEqualTo("10.0.1.2:11211");
  }
}
