package io.github.chash.redis;

import io.github.chash.cache.LegacyData;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TwemproxyProcess;
import io.github.chash.config.ChashConfigs;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Switching from twemproxy over Redis keeps every value the applications wrote through it, both
 * ways ({@link LegacyData#switchKeepsEveryValue}): Jedis 5.2.0 writes through a real nutcracker
 * ({@code distribution: ketama}, weights and names) in front of three Redis servers; chash, with
 * migration.md's block as written (only the addresses replaced), talks to the servers directly.
 */
class TwemproxyLegacyPeersIT {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  @Test
  void twemproxyKetamaOverRedis_everyValueKeptBothWays() throws Exception {
    List<String> servers =
        List.of(hostPort(1) + ":1 alpha", hostPort(2) + ":2 beta", hostPort(3) + ":1");
    String yaml =
        LegacyData.migrationBlock(
            "twemproxy-redis", "10\\.0\\.0\\.1(\\d):6379", TwemproxyLegacyPeersIT::hostPort);
    try (TwemproxyProcess proxy = TwemproxyProcess.start(servers, true);
        JedisPeer old = JedisPeer.single("5.2.0", "127.0.0.1", proxy.port());
        ShardedCacheManager manager =
            LoopbackFleet.connected(
                ShardedCaches.create(ChashConfigs.parse(yaml, "migration.md")))) {
      LegacyData.switchKeepsEveryValue(old.asOldClient(), manager);
    }
  }

  /** {@code 127.0.0.1:port} of the n-th server, from 1. */
  private static String hostPort(int n) {
    return "127.0.0.1:" + fleet.server(fleet.nodeIds().get(n - 1)).port();
  }
}
