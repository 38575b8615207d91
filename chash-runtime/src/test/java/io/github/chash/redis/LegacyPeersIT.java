package io.github.chash.redis;

import static io.github.chash.cache.LegacyData.OBJECTS;
import static io.github.chash.cache.LegacyData.STRINGS;
import static io.github.chash.cache.LegacyData.TTL_SECONDS;
import static io.github.chash.cache.LegacyData.deserialize;
import static io.github.chash.cache.LegacyData.inBatches;
import static io.github.chash.cache.LegacyData.name;
import static io.github.chash.cache.LegacyData.order;
import static io.github.chash.cache.LegacyData.serialize;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.LegacyData;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.config.ChashConfigs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Switching from a real Jedis client keeps every value it cached, and old and new clients stay
 * coherent while both run. The old client writes 10,000 strings (1% of them 20 KB) and 2,000
 * JDK-serialized objects with a TTL; chash, configured with the block migration.md shows for that
 * client (read from the page, only the addresses replaced), reads every one of them, writes v2 that
 * the old client reads for every key, and evicts keys the old client then misses.
 */
class LegacyPeersIT {

  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  @Test
  void shardedJedis3_weightedNamedAndUnnamedShards_everyValueKeptBothWays() throws Exception {
    List<JedisPeer.Shard> shards =
        List.of(
            new JedisPeer.Shard("127.0.0.1", port(0), null, 2),
            new JedisPeer.Shard("127.0.0.1", port(1), "cache-b", 1),
            new JedisPeer.Shard("127.0.0.1", port(2), null, 1));
    try (JedisPeer old = JedisPeer.shardedJedis3("3.10.0", shards)) {
      switchesKeepingEveryValue(old, "sharded-jedis");
    }
  }

  @Test
  void jedisSharding5_everyValueKeptBothWays() throws Exception {
    List<JedisPeer.Shard> shards =
        List.of(
            new JedisPeer.Shard("127.0.0.1", port(0), null, 1),
            new JedisPeer.Shard("127.0.0.1", port(1), null, 1),
            new JedisPeer.Shard("127.0.0.1", port(2), null, 1));
    try (JedisPeer old = JedisPeer.jedisSharding("5.2.0", shards)) {
      switchesKeepingEveryValue(old, "jedis-sharding");
    }
  }

  private void switchesKeepingEveryValue(JedisPeer old, String block) throws Exception {
    List<String> userKeys = new ArrayList<>();
    List<String> orderKeys = new ArrayList<>();
    for (int i = 0; i < STRINGS; i++) {
      userKeys.add("user:" + i);
      old.setex("user:" + i, TTL_SECONDS, name(i, "v1"));
    }
    for (int i = 0; i < OBJECTS; i++) {
      orderKeys.add("app:order:" + i);
      old.setex(bytes("app:order:" + i), TTL_SECONDS, serialize(order(i, "v1")));
    }

    try (ShardedCacheManager manager =
        LoopbackFleet.connected(
            ShardedCaches.create(ChashConfigs.parse(migrationBlock(block), "migration.md")))) {
      TypedCache<String, String> users = manager.cache("users").typed(String.class, String.class);
      TypedCache<String, Object> orders = manager.cache("orders").typed(String.class, Object.class);

      // 1. chash reads every value the old client wrote
      Map<String, String> readUsers = inBatches(userKeys, users::getAll);
      Map<String, Object> readOrders = inBatches(orderKeys, orders::getAll);
      int userHits = 0;
      for (int i = 0; i < STRINGS; i++) {
        userHits += name(i, "v1").equals(readUsers.get("user:" + i)) ? 1 : 0;
      }
      int orderHits = 0;
      for (int i = 0; i < OBJECTS; i++) {
        orderHits += order(i, "v1").equals(readOrders.get("app:order:" + i)) ? 1 : 0;
      }
      assertThat(userHits)
          .as(
              "strings chash read as the old client wrote (%s, %s)",
              users.stats(), manager.nodeStats())
          .isEqualTo(STRINGS);
      assertThat(orderHits).as("objects chash read as the old client wrote").isEqualTo(OBJECTS);
      assertThat(users.get("user:7")).isEqualTo(name(7, "v1")); // the single-key read too

      // 2. chash writes v2; the old client reads v2 for every key, with chash's TTL
      Map<String, String> userV2 = new LinkedHashMap<>();
      for (int i = 0; i < STRINGS; i++) {
        userV2.put("user:" + i, name(i, "v2"));
      }
      Map<String, Object> orderV2 = new LinkedHashMap<>();
      for (int i = 0; i < OBJECTS; i++) {
        orderV2.put("app:order:" + i, order(i, "v2"));
      }
      LegacyData.putInBatches(users, userV2);
      LegacyData.putInBatches(orders, orderV2);
      users.put("user:7", name(7, "v2")); // the single-key write too
      int stale = 0;
      for (int i = 0; i < STRINGS; i++) {
        stale += name(i, "v2").equals(old.get("user:" + i)) ? 0 : 1;
      }
      for (int i = 0; i < OBJECTS; i++) {
        byte[] stored = old.get(bytes("app:order:" + i));
        stale += stored != null && order(i, "v2").equals(deserialize(stored)) ? 0 : 1;
      }
      assertThat(stale).as("keys the old client reads older than chash's write").isZero();
      assertThat(ttlMillisAnywhere("user:3")).isBetween(1L, TTL_SECONDS * 1000L);

      // 3. chash evicts; the old client misses exactly those keys
      int evicted = 0;
      for (int i = 0; i < STRINGS; i += 7) {
        users.evict("user:" + i);
        evicted++;
      }
      for (int i = 0; i < OBJECTS; i += 7) {
        orders.evict("app:order:" + i);
        evicted++;
      }
      int missed = 0;
      int wrong = 0;
      for (int i = 0; i < STRINGS; i++) {
        String value = old.get("user:" + i);
        missed += value == null ? 1 : 0;
        wrong += value != null && (i % 7 == 0 || !value.equals(name(i, "v2"))) ? 1 : 0;
      }
      for (int i = 0; i < OBJECTS; i++) {
        byte[] value = old.get(bytes("app:order:" + i));
        missed += value == null ? 1 : 0;
        wrong +=
            value != null && (i % 7 == 0 || !order(i, "v2").equals(deserialize(value))) ? 1 : 0;
      }
      assertThat(missed)
          .as("keys the old client misses after chash's evictions")
          .isEqualTo(evicted);
      assertThat(wrong).isZero();
      assertThat(users.stats().evictionCount()).isPositive();
      assertThat(manager.nodeStats().values()).allSatisfy(s -> assertThat(s.errorCount()).isZero());
    }
  }

  private static byte[] bytes(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  private static int port(int server) {
    return fleet.server(fleet.nodeIds().get(server)).port();
  }

  /** The key's time to live on whichever server holds it. */
  private static long ttlMillisAnywhere(String key) {
    for (String id : fleet.nodeIds()) {
      Object pttl = fleet.server(id).command("PTTL", key);
      if (pttl instanceof Long millis && millis > 0) {
        return millis;
      }
    }
    return -1;
  }

  private static String migrationBlock(String name) throws IOException {
    return LegacyData.migrationBlock(
        name,
        "redis://10\\.0\\.0\\.1(\\d):6379",
        n -> fleet.server(fleet.nodeIds().get(n - 1)).uri());
  }
}
