package io.github.chash.memcached;

import io.github.chash.cache.LegacyData;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TwemproxyProcess;
import io.github.chash.config.ChashConfigs;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.spy.memcached.MemcachedClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Switching from twemproxy over memcached keeps every value the applications wrote through it, both
 * ways ({@link LegacyData#switchKeepsEveryValue}): spymemcached 2.12.3 writes through a real
 * nutcracker ({@code distribution: ketama}) in front of three memcached servers; chash, with
 * migration.md's block as written (only the addresses replaced), talks to the servers directly.
 */
class TwemproxyMemcachedLegacyPeersIT {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(3);

  @Test
  void twemproxyKetamaOverMemcached_everyValueKeptBothWays() throws Exception {
    List<String> servers = List.of(hostPort(1) + ":1", hostPort(2) + ":1", hostPort(3) + ":1");
    String yaml =
        LegacyData.migrationBlock(
            "twemproxy-memcached",
            "10\\.0\\.0\\.1(\\d):11211",
            TwemproxyMemcachedLegacyPeersIT::hostPort);
    try (TwemproxyProcess proxy = TwemproxyProcess.start(servers, false)) {
      MemcachedClient spy = new MemcachedClient(new InetSocketAddress("127.0.0.1", proxy.port()));
      try (ShardedCacheManager manager =
          LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "migration.md")))) {
        LegacyData.switchKeepsEveryValue(MemcachedLegacyPeersIT.oldClient(spy), manager);
      } finally {
        spy.shutdown(5, TimeUnit.SECONDS);
      }
    }
  }

  /** {@code 127.0.0.1:port} of the n-th server, from 1. */
  private static String hostPort(int n) {
    return fleet.server(fleet.nodeIds().get(n - 1)).hostPort();
  }
}
