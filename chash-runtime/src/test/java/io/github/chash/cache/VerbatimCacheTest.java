package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.RoutingKey;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A verbatim cache's routing, clear and method ttls, over in-process nodes. */
class VerbatimCacheTest {

  private static ShardedCacheManager manager() {
    return ShardedCaches.create(
        ChashConfigs.parse(
            "nodes: [{id: a}, {id: b}, {id: c}]\n"
                + "caches:\n"
                + "  legacy: { ttl: 1h, keys: verbatim }\n"
                + "  users: { ttl: 1h }\n",
            "chash.yaml"));
  }

  @Test
  void routingKey_isTheKeyAsGiven_andTheRingPlacesItByThatKey() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache legacy = InterceptedCache.of(manager.cache("legacy"));
      for (int i = 0; i < 200; i++) {
        String key = "app:user:" + i;
        String routingKey = legacy.routingKey(key, "test");
        assertThat(VerbatimKeys.isVerbatim(routingKey)).isTrue();
        assertThat(VerbatimKeys.key(routingKey)).isEqualTo(key);
        assertThat(VerbatimKeys.cacheName(routingKey)).isEqualTo("legacy");
        legacy.put(routingKey, "v" + i);
        String owner = manager.ring().locate(key).id();
        assertThat(manager.node(owner).get(routingKey, ValueType.OBJECT)).isEqualTo("v" + i);
        assertThat(legacy.getIfPresent(legacy.key(key, "test"), ValueType.OBJECT))
            .isEqualTo("v" + i);
      }
    }
  }

  /**
   * A verbatim key that a canonical form would mark (a text reading as null or as a composite) is
   * the peer client's key all the same, through every way to a routing key: a key object, its text,
   * and a method's only argument (a default key of {@code @ShardedCacheable} or Spring's
   * {@code @Cacheable}).
   */
  @Test
  void routingKey_ofATextThatReadsAsAnotherForm_isNotMarked() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache legacy = InterceptedCache.of(manager.cache("legacy"));
      for (String key : java.util.List.of("null", "[1]", "{a=b}", "(x)", "\\y")) {
        assertThat(VerbatimKeys.key(legacy.routingKey(key, "test"))).isEqualTo(key);
        assertThat(VerbatimKeys.key(legacy.key(key, "test").text())).isEqualTo(key);
        RoutingKey ofArgument =
            legacy.keyOfArguments(new Object[] {key}, "S.m", new String[] {"k"});
        assertThat(VerbatimKeys.key(ofArgument.text())).isEqualTo(key);
      }
    }
  }

  @Test
  void routingKeys_ofAVerbatimAndAPrefixedCache_neverMeet() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache legacy = InterceptedCache.of(manager.cache("legacy"));
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      // the verbatim key "users:1" is not cache users' key 1
      legacy.put(legacy.routingKey("users:1", "test"), "legacy");
      users.put(users.routingKey(1, "test"), "users");
      assertThat(legacy.getIfPresent(legacy.key("users:1", "test"), ValueType.OBJECT))
          .isEqualTo("legacy");
      assertThat(users.getIfPresent(users.key(1, "test"), ValueType.OBJECT)).isEqualTo("users");
    }
  }

  @Test
  void clear_deletesTheKeysThisJvmWrote_notOnesWrittenByAnotherClient() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache legacy = InterceptedCache.of(manager.cache("legacy"));
      String mine = legacy.routingKey("user:1", "test");
      String theirs = legacy.routingKey("user:2", "test");
      legacy.put(mine, "mine");
      // the old client's entry: on its owner, written around this cache
      manager.node(manager.ring().locate("user:2").id()).put(theirs, "theirs", null);

      legacy.clear();

      assertThat(legacy.getIfPresent(mine, ValueType.OBJECT)).isNull();
      assertThat(legacy.getIfPresent(theirs, ValueType.OBJECT)).isEqualTo("theirs");
      assertThat(legacy.stats().evictionCount()).isEqualTo(1);
    }
  }

  @Test
  void withTtl_withoutOne_keepsTheCachesTtl() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache legacy = InterceptedCache.of(manager.cache("legacy"));
      assertThat(legacy.withTtl(null).ttl()).isEqualTo(Duration.ofHours(1));
      assertThat(legacy.withTtl(Duration.ofMinutes(5)).ttl()).isEqualTo(Duration.ofMinutes(5));
      // a method's cache keeps the verbatim layout
      String routingKey = legacy.withTtl(Duration.ofMinutes(5)).routingKey("user:3", "test");
      assertThat(VerbatimKeys.key(routingKey)).isEqualTo("user:3");
    }
  }
}
