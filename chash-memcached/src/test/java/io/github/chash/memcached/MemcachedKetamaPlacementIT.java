package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfigs;
import io.github.chash.ring.Ring;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.MemcachedClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A spymemcached user keeps servers and placement: a {@code chash.yaml} whose memcached nodes are
 * named {@code host:port} under {@code ring: {algorithm: ketama, compat: spymemcached}} places
 * every key where spymemcached 2.12.3's ketama client, talking to the same real servers, stored it.
 */
class MemcachedKetamaPlacementIT {
  private static final int KEYS = 3000;

  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(5);

  @Test
  void keysWrittenBySpymemcachedKetama_areOnTheServerChashLocates() throws Exception {
    StringBuilder yaml =
        new StringBuilder("ring: { algorithm: ketama, compat: spymemcached }\nnodes:\n");
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (String id : fleet.nodeIds()) {
      MemcachedServerProcess server = fleet.server(id);
      yaml.append("  - { id: '")
          .append(server.hostPort())
          .append("', type: memcached, uri: '")
          .append(server.uri())
          .append("' }\n");
      addresses.add(new InetSocketAddress("127.0.0.1", server.port()));
    }
    MemcachedClient spy =
        new MemcachedClient(
            new ConnectionFactoryBuilder()
                .setLocatorType(ConnectionFactoryBuilder.Locator.CONSISTENT)
                .setHashAlg(DefaultHashAlgorithm.KETAMA_HASH)
                .setFailureMode(net.spy.memcached.FailureMode.Cancel)
                .build(),
            addresses);
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(
            ShardedCaches.create(ChashConfigs.parse(yaml.toString(), "chash.yaml")))) {
      Ring ring = manager.ring();
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        String key = "user:" + i;
        keys.add(key);
        assertThat(spy.set(key, 0, "v").get(5, TimeUnit.SECONDS)).as(key).isTrue();
      }
      int differ = 0;
      int[] perServer = new int[addresses.size()];
      for (String key : keys) {
        String owner = ring.locate(key).id();
        int index = fleet.nodeIds().indexOf(idOfHostPort(owner));
        perServer[index]++;
        if (!fleet.server(fleet.nodeIds().get(index)).exists(key)) {
          differ++;
        }
      }
      System.out.printf(
          "%n=== spymemcached ketama vs chash on %d real servers: %d of %d keys differ;"
              + " keys per server %s%n",
          addresses.size(), differ, KEYS, java.util.Arrays.toString(perServer));
      assertThat(differ).isZero();
      for (int count : perServer) {
        assertThat(count).as("every server holds keys").isPositive();
      }
    } finally {
      spy.shutdown(5, TimeUnit.SECONDS);
    }
  }

  /** The fleet's node id of a server named {@code 127.0.0.1:port}. */
  private static String idOfHostPort(String hostPort) {
    for (String id : fleet.nodeIds()) {
      if (fleet.server(id).hostPort().equals(hostPort)) {
        return id;
      }
    }
    throw new AssertionError("no server " + hostPort);
  }
}
