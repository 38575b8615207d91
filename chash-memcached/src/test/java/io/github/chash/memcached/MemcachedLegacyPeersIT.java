package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.LegacyData;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfigs;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.spy.memcached.KetamaConnectionFactory;
import net.spy.memcached.MemcachedClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Switching from spymemcached 2.12.3's ketama client ({@code KetamaConnectionFactory}, its default
 * {@code SerializingTranscoder}) on three real memcached servers keeps every value it cached, both
 * ways ({@link LegacyData#switchKeepsEveryValue}: 1% of the strings are 20 KB, which it
 * compresses), with chash configured by migration.md's block as written (only the addresses
 * replaced).
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
    String yaml =
        LegacyData.migrationBlock(
            "spymemcached",
            "10\\.0\\.0\\.(\\d):11211",
            n -> fleet.server(fleet.nodeIds().get(n - 1)).hostPort());
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "migration.md")))) {
      LegacyData.switchKeepsEveryValue(oldClient(spy), manager);
    } finally {
      spy.shutdown(5, TimeUnit.SECONDS);
    }
  }

  /** spymemcached as a team used it: values through its own transcoder, writes pipelined. */
  static LegacyData.OldClient oldClient(MemcachedClient spy) {
    List<Future<Boolean>> writes = new ArrayList<>();
    return new LegacyData.OldClient() {
      @Override
      public void setText(String key, int ttlSeconds, String value) {
        writes.add(spy.set(key, ttlSeconds, value));
      }

      @Override
      public void setObject(String key, int ttlSeconds, Object value) {
        writes.add(spy.set(key, ttlSeconds, value));
      }

      @Override
      public void awaitWrites() {
        for (Future<Boolean> write : writes) {
          try {
            assertThat(write.get(10, TimeUnit.SECONDS)).isTrue();
          } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("a spymemcached write failed", e);
          }
        }
        writes.clear();
      }

      @Override
      public Map<String, Object> readAll(List<String> textKeys, List<String> objectKeys) {
        List<String> keys = new ArrayList<>(textKeys);
        keys.addAll(objectKeys);
        Map<String, Object> all = new LinkedHashMap<>();
        for (int from = 0; from < keys.size(); from += 500) {
          all.putAll(spy.getBulk(keys.subList(from, Math.min(keys.size(), from + 500))));
        }
        return all;
      }
    };
  }
}
