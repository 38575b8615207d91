package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.NullValue;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.RingSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShardedCacheManagerTest {
  private final FakeTicker ticker = new FakeTicker();
  private ShardedCacheManager manager;

  @AfterEach
  void close() {
    if (manager != null) {
      manager.close();
    }
  }

  private ShardedCacheManager fourShards() {
    manager =
        ShardedCaches.builder()
            .ticker(ticker)
            .node(NodeConfig.local("a"))
            .node(NodeConfig.local("b"))
            .node(new NodeConfig("c", NodeType.LOCAL, 2, 10_000, null))
            .node(NodeConfig.local("d"))
            .cache("users", Duration.ofMinutes(10))
            .cache("orders", null)
            .build();
    return manager;
  }

  @Test
  void keys_readWhatTheRoutingKeyWrote_countOnce_andHonourTheTtl() {
    InterceptedCache users = InterceptedCache.of(fourShards().cache("users"));
    for (int i = 0; i < 200; i++) {
      users.put(users.routingKey((long) i, "T.m(id)"), "id" + i);
      users.put(users.routingKey("n" + i, "T.m(name)"), "name" + i);
    }
    for (int i = 0; i < 200; i++) {
      assertThat(users.getIfPresent(users.key((long) i), ValueType.OBJECT)).isEqualTo("id" + i);
      assertThat(users.getIfPresent(users.key(Long.valueOf(i), "T.m(id)"), ValueType.OBJECT))
          .isEqualTo("id" + i);
      assertThat(users.getIfPresent(users.key(Integer.valueOf(i), "T.m(id)"), ValueType.OBJECT))
          .isEqualTo("id" + i);
      assertThat(users.getIfPresent(users.key("n" + i, "T.m(name)"), ValueType.OBJECT))
          .isEqualTo("name" + i);
    }
    assertThat(users.getIfPresent(users.key(200L), ValueType.OBJECT)).isNull();
    assertThat(users.getIfPresent(users.key("n200", "T.m(name)"), ValueType.OBJECT)).isNull();
    assertThat(manager.cacheStats().get("users").hitCount()).isEqualTo(800);
    assertThat(manager.cacheStats().get("users").missCount()).isEqualTo(2);

    ticker.advance(Duration.ofMinutes(10));
    assertThat(users.getIfPresent(users.key(1L), ValueType.OBJECT)).isNull();
    assertThat(manager.node(manager.ring().locate("users:1").id()).get("users:1", ValueType.OBJECT))
        .isNull();
  }

  @Test
  void put_keysLandOnTheNodeTheRingSays() {
    InterceptedCache users = InterceptedCache.of(fourShards().cache("users"));
    Map<String, Integer> perNode = new HashMap<>();
    for (int i = 0; i < 2000; i++) {
      String key = users.routingKey(i, "T.m(id)");
      users.put(key, "v" + i);
      String owner = manager.ring().locate(key).id();
      perNode.merge(owner, 1, Integer::sum);
      for (String id : List.of("a", "b", "c", "d")) {
        Object there = manager.node(id).get(key, ValueType.OBJECT);
        if (id.equals(owner)) {
          assertThat(there).isEqualTo("v" + i);
        } else {
          assertThat(there).isNull();
        }
      }
    }
    assertThat(perNode).containsOnlyKeys("a", "b", "c", "d");
    for (String id : List.of("a", "b", "c", "d")) {
      assertThat(manager.node(id).estimatedSize()).isEqualTo((long) perNode.get(id));
    }
  }

  @Test
  void routingKey_isCacheNameColonCanonicalKey() {
    InterceptedCache users = InterceptedCache.of(fourShards().cache("users"));
    assertThat(users.routingKey("alice", "T.m(name)")).isEqualTo("users:alice");
    assertThat(users.routingKey(42L, "T.m(id)")).isEqualTo("users:42");
    assertThat(users.routingKey(List.of(1, 2), "T.m(ids)")).isEqualTo("users:[1,2]");
    assertThat(users.keyOfArguments(new Object[] {1, "x"}, "T.m", new String[] {"a", "b"}).text())
        .isEqualTo("users:1,x");
  }

  @Test
  void stats_countHitsMissesLoadsExactly() throws Throwable {
    InterceptedCache users = InterceptedCache.of(fourShards().cache("users"));
    InterceptedCache orders = InterceptedCache.of(manager.cache("orders"));
    AtomicInteger runs = new AtomicInteger();
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 10; i++) {
        String key = users.routingKey(i, "T.m(id)");
        assertThat(
                users.<String>get(
                    key, ValueType.OBJECT, () -> "v" + runs.incrementAndGet(), false, false))
            .startsWith("v");
      }
    }
    assertThat(runs).hasValue(10);
    CacheStats counted =
        CacheStats.builder().hitCount(20).missCount(10).loadCount(10).putCount(10).build();
    assertThat(users.stats()).isEqualTo(counted);
    assertThat(orders.stats()).isEqualTo(CacheStats.empty());
    assertThat(manager.cacheStats()).containsEntry("users", users.stats());
    CacheStats total =
        manager.nodeStats().values().stream().reduce(CacheStats.empty(), CacheStats::plus);
    assertThat(total).isEqualTo(counted);
    assertThat(manager.nodeStats()).containsOnlyKeys("a", "b", "c", "d");
  }

  @Test
  void stats_eachNodesHitsAreItsOwnAcrossCachesAndTtlHandles() {
    InterceptedCache users = InterceptedCache.of(fourShards().cache("users"));
    InterceptedCache orders = InterceptedCache.of(manager.cache("orders"));
    InterceptedCache shortUsers = users.withTtl(Duration.ofSeconds(5));
    Map<String, Long> expected = new HashMap<>();
    for (int i = 0; i < 200; i++) {
      InterceptedCache cache = i % 3 == 0 ? orders : i % 3 == 1 ? users : shortUsers;
      String key = cache.routingKey(i, "T.m(id)");
      cache.put(key, "v");
      for (int hit = 0; hit <= i % 4; hit++) {
        assertThat(cache.getIfPresent(key, ValueType.OBJECT)).isEqualTo("v");
        expected.merge(manager.ring().locate(key).id(), 1L, Long::sum);
      }
    }
    Map<String, CacheStats> nodes = manager.nodeStats();
    expected.forEach((node, hits) -> assertThat(nodes.get(node).hitCount()).isEqualTo(hits));
    long userHits = 0;
    long orderHits = 0;
    for (int i = 0; i < 200; i++) {
      if (i % 3 == 0) {
        orderHits += i % 4 + 1;
      } else {
        userHits += i % 4 + 1;
      }
    }
    assertThat(users.stats().hitCount()).isEqualTo(userHits);
    assertThat(shortUsers.stats().hitCount()).isEqualTo(userHits);
    assertThat(orders.stats().hitCount()).isEqualTo(orderHits);
  }

  @Test
  void stats_loaderFailureIsCountedAndNothingCached() {
    InterceptedCache users = InterceptedCache.of(fourShards().cache("users"));
    String key = users.routingKey(1, "T.m(id)");
    IllegalStateException boom = new IllegalStateException("boom");
    assertThatThrownBy(
            () ->
                users.get(
                    key,
                    ValueType.OBJECT,
                    () -> {
                      throw boom;
                    },
                    false,
                    false))
        .isSameAs(boom);
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
    assertThat(users.stats())
        .isEqualTo(CacheStats.builder().missCount(2).loadFailureCount(1).build());
  }

  @Test
  void get_nullIsCachedOnlyWithCacheNull() throws Throwable {
    InterceptedCache users = InterceptedCache.of(fourShards().cache("users"));
    String plain = users.routingKey("plain", "T.m(k)");
    String cached = users.routingKey("cached", "T.m(k)");
    assertThat(users.<Object>get(plain, ValueType.OBJECT, () -> null, false, false)).isNull();
    assertThat(users.getIfPresent(plain, ValueType.OBJECT)).isNull();
    assertThat(users.<Object>get(cached, ValueType.OBJECT, () -> null, false, true)).isNull();
    assertThat(users.getIfPresent(cached, ValueType.OBJECT)).isSameAs(NullValue.INSTANCE);
    AtomicInteger runs = new AtomicInteger();
    assertThat(
            users.<Object>get(cached, ValueType.OBJECT, () -> runs.incrementAndGet(), false, true))
        .isNull();
    assertThat(runs).hasValue(0);
  }

  @Test
  void put_honoursTheCacheTtlAndWithTtl() {
    InterceptedCache users = InterceptedCache.of(fourShards().cache("users"));
    InterceptedCache orders = InterceptedCache.of(manager.cache("orders"));
    InterceptedCache shortUsers = users.withTtl(Duration.ofSeconds(5));
    users.put("users:1", "ten minutes");
    shortUsers.put("users:2", "five seconds");
    orders.put("orders:1", "forever");
    ticker.advance(Duration.ofSeconds(6));
    assertThat(users.getIfPresent("users:2", ValueType.OBJECT)).isNull();
    assertThat(users.getIfPresent("users:1", ValueType.OBJECT)).isEqualTo("ten minutes");
    ticker.advance(Duration.ofMinutes(10));
    assertThat(users.getIfPresent("users:1", ValueType.OBJECT)).isNull();
    assertThat(orders.getIfPresent("orders:1", ValueType.OBJECT)).isEqualTo("forever");
    assertThat(shortUsers.stats()).isEqualTo(users.stats());
  }

  @Test
  void cache_unknownNameIsAnErrorListingTheConfiguredOnes() {
    fourShards();
    assertThatThrownBy(() -> manager.cache("user"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown cache \"user\"; configured caches are [users, orders]");
  }

  @Test
  void create_buildsFromAConfigWithAPluggedFactory() {
    ChashConfig config =
        ChashConfig.builder()
            .source("chash.yaml")
            .ring(RingSettings.of(Algorithm.MAGLEV))
            .node(NodeConfig.local("a"))
            .node(NodeConfig.redis("r1", "redis://127.0.0.1:1"))
            .cache(new CacheConfig("users", Duration.ofMinutes(1)))
            .build();
    // hide the real Redis factory this module registers, to see the message without one
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    thread.setContextClassLoader(NodeFactoryDiscoveryTest.withoutServices(before));
    try {
      assertThatThrownBy(() -> ShardedCaches.create(config))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "chash.yaml: no cache node factory for type redis of node \"r1\" on the class path"
                  + " (found: local); add the artifact that provides it"
                  + " (io.github.chash:chash-redis)");
    } finally {
      thread.setContextClassLoader(before);
    }

    CacheNodeFactory fakeRedis =
        new CacheNodeFactory() {
          @Override
          public NodeType type() {
            return NodeType.REDIS;
          }

          @Override
          public CacheNode create(NodeConfig node, ChashConfig whole) {
            assertThat(whole).isSameAs(config);
            return CacheNodes.local(node.id(), 10);
          }
        };
    manager = ShardedCaches.builder().config(config).nodeFactory(fakeRedis).build();
    assertThat(manager.ring().settings().algorithm()).isEqualTo(Algorithm.MAGLEV);
    assertThat(manager.ring().nodes()).extracting(n -> n.id()).containsExactly("a", "r1");
    assertThat(manager.cacheNames()).containsExactly("users");
  }

  @Test
  void build_rejectsDuplicatesAndEmptyRings() {
    assertThatThrownBy(() -> ShardedCaches.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("a sharded cache needs at least one node; none was added");
    assertThatThrownBy(
            () -> ShardedCaches.builder().node(NodeConfig.local("a")).node(NodeConfig.local("a")))
        .hasMessage("duplicate node id \"a\"");
    assertThatThrownBy(() -> ShardedCaches.builder().cache("x", null).cache("x", null))
        .hasMessage("duplicate cache name \"x\"");
    assertThatThrownBy(() -> ShardedCaches.builder().cache("x", Duration.ZERO))
        .hasMessage("ttl of cache \"x\" must be positive, was \"0ms\"");
  }
}
