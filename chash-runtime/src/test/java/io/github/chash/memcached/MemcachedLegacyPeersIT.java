package io.github.chash.memcached;

import static io.github.chash.cache.LegacyData.OBJECTS;
import static io.github.chash.cache.LegacyData.STRINGS;
import static io.github.chash.cache.LegacyData.TTL_SECONDS;
import static io.github.chash.cache.LegacyData.name;
import static io.github.chash.cache.LegacyData.order;
import static io.github.chash.cache.LegacyData.orderKey;
import static io.github.chash.cache.LegacyData.userKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.LegacyData;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.config.ChashConfigs;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.spy.memcached.KetamaConnectionFactory;
import net.spy.memcached.MemcachedClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Switching from spymemcached 2.12.3's ketama client keeps every value it cached, both ways: it
 * writes 10,000 strings (1% of them 20 KB, which it compresses) and 2,000 serialized objects with a
 * TTL to three real memcached servers; chash, configured with migration.md's block as written (only
 * the addresses replaced), reads them all, writes v2 that spymemcached reads for every key, and
 * evicts keys spymemcached then misses.
 */
class MemcachedLegacyPeersIT {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(3);

  @Test
  void spymemcachedKetama_everyValueKeptBothWays() throws Exception {
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (String id : fleet.nodeIds()) {
      addresses.add(new InetSocketAddress("127.0.0.1", fleet.server(id).port()));
    }
    MemcachedClient spy = new MemcachedClient(new KetamaConnectionFactory(), addresses);
    try {
      List<String> userKeys = new ArrayList<>();
      List<String> orderKeys = new ArrayList<>();
      List<Future<Boolean>> writes = new ArrayList<>();
      for (int i = 0; i < STRINGS; i++) {
        userKeys.add(userKey(i));
        writes.add(spy.set(userKey(i), TTL_SECONDS, name(i, "v1")));
      }
      for (int i = 0; i < OBJECTS; i++) {
        orderKeys.add(orderKey(i));
        writes.add(spy.set(orderKey(i), TTL_SECONDS, order(i, "v1")));
      }
      for (Future<Boolean> write : writes) {
        assertThat(write.get(10, TimeUnit.SECONDS)).isTrue();
      }

      String yaml =
          LegacyData.migrationBlock(
              "spymemcached",
              "10\\.0\\.0\\.(\\d):11211",
              n -> fleet.server(fleet.nodeIds().get(n - 1)).hostPort());
      try (ShardedCacheManager manager =
          LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "migration.md")))) {
        TypedCache<String, String> users = manager.cache("users").typed(String.class, String.class);
        TypedCache<String, Object> orders =
            manager.cache("orders").typed(String.class, Object.class);

        // 1. chash reads every value spymemcached wrote
        Map<String, String> readUsers = LegacyData.inBatches(userKeys, users::getAll);
        Map<String, Object> readOrders = LegacyData.inBatches(orderKeys, orders::getAll);
        int userHits = 0;
        for (int i = 0; i < STRINGS; i++) {
          userHits += name(i, "v1").equals(readUsers.get(userKey(i))) ? 1 : 0;
        }
        int orderHits = 0;
        for (int i = 0; i < OBJECTS; i++) {
          orderHits += order(i, "v1").equals(readOrders.get(orderKey(i))) ? 1 : 0;
        }
        assertThat(userHits)
            .as("strings chash read as spymemcached wrote (%s)", manager.nodeStats())
            .isEqualTo(STRINGS);
        assertThat(orderHits).as("objects chash read as spymemcached wrote").isEqualTo(OBJECTS);
        assertThat(users.get(userKey(0))).isEqualTo(name(0, "v1")); // a compressed one, alone

        // 2. chash writes v2; spymemcached reads v2 for every key
        Map<String, String> userV2 = new LinkedHashMap<>();
        for (int i = 0; i < STRINGS; i++) {
          userV2.put(userKey(i), name(i, "v2"));
        }
        Map<String, Object> orderV2 = new LinkedHashMap<>();
        for (int i = 0; i < OBJECTS; i++) {
          orderV2.put(orderKey(i), order(i, "v2"));
        }
        LegacyData.putInBatches(users, userV2);
        LegacyData.putInBatches(orders, orderV2);
        users.put(userKey(7), name(7, "v2"));
        Map<String, Object> seen = spyGetAll(spy, userKeys, orderKeys);
        int stale = 0;
        for (int i = 0; i < STRINGS; i++) {
          stale += name(i, "v2").equals(seen.get(userKey(i))) ? 0 : 1;
        }
        for (int i = 0; i < OBJECTS; i++) {
          stale += order(i, "v2").equals(seen.get(orderKey(i))) ? 0 : 1;
        }
        assertThat(stale).as("keys spymemcached reads older than chash's write").isZero();

        // 3. chash evicts; spymemcached misses exactly those keys
        int evicted = 0;
        for (int i = 0; i < STRINGS; i += 7) {
          users.evict(userKey(i));
          evicted++;
        }
        for (int i = 0; i < OBJECTS; i += 7) {
          orders.evict(orderKey(i));
          evicted++;
        }
        Map<String, Object> after = spyGetAll(spy, userKeys, orderKeys);
        int missed = userKeys.size() + orderKeys.size() - after.size();
        int wrong = 0;
        for (int i = 0; i < STRINGS; i++) {
          Object value = after.get(userKey(i));
          wrong += value != null && (i % 7 == 0 || !value.equals(name(i, "v2"))) ? 1 : 0;
        }
        for (int i = 0; i < OBJECTS; i++) {
          Object value = after.get(orderKey(i));
          wrong += value != null && (i % 7 == 0 || !value.equals(order(i, "v2"))) ? 1 : 0;
        }
        assertThat(missed)
            .as("keys spymemcached misses after chash's evictions")
            .isEqualTo(evicted);
        assertThat(wrong).isZero();
        assertThat(manager.nodeStats().values())
            .allSatisfy(s -> assertThat(s.errorCount()).isZero());
      }
    } finally {
      spy.shutdown(5, TimeUnit.SECONDS);
    }
  }

  private static Map<String, Object> spyGetAll(
      MemcachedClient spy, List<String> userKeys, List<String> orderKeys) {
    Map<String, Object> all = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>(userKeys);
    keys.addAll(orderKeys);
    for (int from = 0; from < keys.size(); from += 500) {
      all.putAll(spy.getBulk(keys.subList(from, Math.min(keys.size(), from + 500))));
    }
    return all;
  }
}
