package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A manager built from a parsed {@code chash.yaml}, as an application gets one. */
class ConfiguredManagerTest {
  private static final String YAML =
      """
      ring:
        algorithm: rendezvous
      nodes:
        - id: local-a
          type: local
          maximumSize: 100
        - id: local-b
          type: local
          weight: 2
          maximumSize: 100
      caches:
        users: { ttl: 10m }
        orders: { ttl: 30s }
      failover: { failureLimit: 2, retryAfter: 5s, timeout: 50ms, onRejoin: flush }
      """;

  @Test
  void create_takesRingNodesCachesAndSizesFromTheFile() {
    try (ShardedCacheManager manager =
        ShardedCaches.create(ChashConfigs.parse(YAML, "chash.yaml"))) {
      assertThat(manager.ring().settings().algorithm()).isEqualTo(Algorithm.RENDEZVOUS);
      assertThat(manager.ring().nodes())
          .containsExactly(Node.of("local-a", 1), Node.of("local-b", 2));
      assertThat(manager.cacheNames()).containsExactly("users", "orders");
      assertThat(manager.cache("users").ttl()).isEqualTo(Duration.ofMinutes(10));
      assertThat(manager.cache("orders").ttl()).isEqualTo(Duration.ofSeconds(30));

      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      for (int i = 0; i < 1000; i++) {
        users.put(users.routingKey(i, "T.m(id)"), i);
      }
      ((LocalCacheNode) manager.node("local-a")).cleanUp();
      ((LocalCacheNode) manager.node("local-b")).cleanUp();
      assertThat(manager.node("local-a").estimatedSize()).isEqualTo(100);
      assertThat(manager.node("local-b").estimatedSize()).isEqualTo(100);
    }
  }

  @Test
  void create_namedAndOrderedNodes_routeAsTheRingOfTheConfig() {
    // jedis names points by shard name and list position: the manager must keep both
    var config =
        ChashConfigs.parse(
            "ring: { algorithm: jedis }\n"
                + "nodes:\n"
                + "  - { id: z, name: shard-a }\n"
                + "  - { id: a, name: shard-b, weight: 2 }\n"
                + "  - { id: m }\n"
                + "caches:\n  users: {}\n",
            "chash.yaml");
    var expected = io.github.chash.ring.Rings.create(config.ring(), config.ringNodes());
    try (ShardedCacheManager manager = ShardedCaches.create(config)) {
      for (int i = 0; i < 2000; i++) {
        String key = "users:" + i;
        assertThat(manager.ring().locate(key)).isEqualTo(expected.locate(key));
      }
    }
  }
}
