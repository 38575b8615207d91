package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.TypedCache;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Bulk reads and writes on three real servers: one request per node, failover per node. */
class RedisBulkIT {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  @BeforeEach
  void resetStats() {
    fleet.nodeIds().forEach(id -> fleet.server(id).command("CONFIG", "RESETSTAT"));
  }

  private static ShardedCacheManager manager() {
    return fleet.manager("{ failureLimit: 3, retryAfter: 30s, timeout: 100ms }");
  }

  private static long calls(String nodeId, String command) {
    String info = (String) fleet.server(nodeId).command("INFO", "commandstats");
    for (String line : info.split("\r\n")) {
      if (line.startsWith("cmdstat_" + command + ":calls=")) {
        return Long.parseLong(line.substring(line.indexOf('=') + 1, line.indexOf(',')));
      }
    }
    return 0;
  }

  @Test
  void getAllAndPutAll_oneRequestPerNodeForAHundredKeys() {
    try (ShardedCacheManager manager = manager()) {
      TypedCache<Long, String> users = manager.cache("users").typed(Long.class, String.class);
      Map<Long, String> values = new LinkedHashMap<>();
      LongStream.range(0, 100).forEach(id -> values.put(id, "user " + id));

      users.putAll(values);
      Map<Long, String> read = users.getAll(values.keySet());

      assertThat(read).isEqualTo(values);
      for (String id : fleet.nodeIds()) {
        assertThat(calls(id, "mget")).as("MGETs on %s", id).isEqualTo(1);
        // one GET and one SET are the vetting of the (emptied) server's incarnation, in its script
        assertThat(calls(id, "get")).as("GETs on %s", id).isEqualTo(1);
        // the SETs of one node go out pipelined, one per key
        assertThat(fleet.server(id).keys("chash:users:*")).hasSize((int) calls(id, "set") - 1);
      }
    }
  }

  @Test
  void getAll_frozenNode_itsKeysAreLoadedOthersServedNoException() {
    try (ShardedCacheManager manager = manager()) {
      TypedCache<Long, String> users = manager.cache("users").typed(Long.class, String.class);
      Map<Long, String> values = new LinkedHashMap<>();
      LongStream.range(0, 60).forEach(id -> values.put(id, "user " + id));
      users.putAll(values);
      fleet.server("r2").pause();
      try {
        Map<Long, Integer> loads = new HashMap<>();
        Map<Long, String> all =
            users.getAll(
                values.keySet(),
                missing -> {
                  Map<Long, String> loaded = new HashMap<>();
                  missing.forEach(
                      id -> {
                        loads.merge(id, 1, Integer::sum);
                        loaded.put(id, "user " + id);
                      });
                  return loaded;
                });
        assertThat(all).isEqualTo(values);
        List<Long> onR2 =
            values.keySet().stream()
                .filter(id -> manager.ring().locate("users:" + id).id().equals("r2"))
                .toList();
        assertThat(loads.keySet()).containsExactlyInAnyOrderElementsOf(onR2);
        assertThat(manager.nodeStats().get("r2").errorCount()).isEqualTo(1);
      } finally {
        fleet.server("r2").resume();
      }
    }
  }
}
