package io.github.chash.redis;

import io.github.chash.cache.LegacyData;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfigs;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Switching from a real Jedis client keeps every value it cached, and old and new clients stay
 * coherent while both run ({@link LegacyData#switchKeepsEveryValue}), with chash configured by the
 * block migration.md shows for that client (read from the page, only the addresses replaced).
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
    try (JedisPeer old = JedisPeer.shardedJedis3("3.10.0", shards);
        ShardedCacheManager manager = manager("sharded-jedis")) {
      LegacyData.switchKeepsEveryValue(old.asOldClient(), manager);
    }
  }

  @Test
  void jedisSharding5_everyValueKeptBothWays() throws Exception {
    List<JedisPeer.Shard> shards =
        List.of(
            new JedisPeer.Shard("127.0.0.1", port(0), null, 1),
            new JedisPeer.Shard("127.0.0.1", port(1), null, 1),
            new JedisPeer.Shard("127.0.0.1", port(2), null, 1));
    try (JedisPeer old = JedisPeer.jedisSharding("5.2.0", shards);
        ShardedCacheManager manager = manager("jedis-sharding")) {
      LegacyData.switchKeepsEveryValue(old.asOldClient(), manager);
    }
  }

  private static int port(int server) {
    return fleet.server(fleet.nodeIds().get(server)).port();
  }

  /** A manager configured by migration.md's block {@code name}, on the test's servers. */
  private static ShardedCacheManager manager(String name) throws IOException {
    String yaml =
        LegacyData.migrationBlock(
            name,
            "redis://10\\.0\\.0\\.1(\\d):6379",
            n -> fleet.server(fleet.nodeIds().get(n - 1)).uri());
    return LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "migration.md")));
  }
}
