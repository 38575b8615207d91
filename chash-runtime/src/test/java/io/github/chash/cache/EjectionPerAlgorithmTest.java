package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.FailoverConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.RingSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Ejection and readmission rebuild a working live ring whatever the placement algorithm. */
class EjectionPerAlgorithmTest {

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void ejectAndReadmit_keepEveryKeyServedByALiveNode(Algorithm algorithm) throws Throwable {
    FakeTicker ticker = new FakeTicker();
    Map<String, FaultyNode> nodes = new LinkedHashMap<>();
    ShardedCaches.Builder builder =
        ShardedCaches.builder()
            .ring(RingSettings.of(algorithm))
            .ticker(ticker)
            .scheduleProbes(false)
            .failover(
                new FailoverConfig(1, Duration.ofSeconds(1), Duration.ofMillis(50), OnRejoin.FLUSH))
            .cache("c", null);
    for (String id : new String[] {"n1", "n2", "n3", "n4"}) {
      FaultyNode node = new FaultyNode(CacheNodes.local(id, 10_000, ticker));
      nodes.put(id, node);
      builder.node(node, 1);
    }
    try (RingCacheManager manager = (RingCacheManager) builder.build()) {
      InterceptedCache cache = InterceptedCache.of(manager.cache("c"));
      // The middle node fails: jump must cope with a removal that is not the last bucket.
      nodes.get("n2").failing(true);
      for (int i = 0; i < 2000; i++) {
        String key = cache.routingKey(i, "T.m(i)");
        int id = i;
        assertThat(cache.<Integer>get(key, ValueType.OBJECT, () -> id, false, false)).isEqualTo(i);
      }
      assertThat(manager.liveRing().nodes()).extracting(Node::id).containsExactly("n1", "n3", "n4");
      for (int i = 0; i < 2000; i++) {
        String key = cache.routingKey(i, "T.m(i)");
        assertThat(manager.liveRing().locate(key).id()).isNotEqualTo("n2");
        assertThat(cache.getIfPresent(key, ValueType.OBJECT)).isEqualTo(i);
      }
      nodes.get("n2").failing(false);
      ticker.advance(Duration.ofSeconds(1));
      manager.failurePolicy().probeDue();
      assertThat(manager.liveRing().nodes()).hasSize(4);
      assertThat(manager.nodeStats().get("n2").ejectionCount()).isEqualTo(1);
    }
  }
}
