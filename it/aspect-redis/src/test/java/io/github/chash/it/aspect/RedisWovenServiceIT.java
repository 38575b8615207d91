package io.github.chash.it.aspect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.aspect.ShardedCacheAspect;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.redis.RedisCacheNodeFactory;
import io.github.chash.redis.RedisFleet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The woven sample service with its caches on three real Redis servers. */
class RedisWovenServiceIT {
  private static final Path CONFIG = Path.of("src/test/resources/chash-redis.yaml");
  private static final Path LOCATED = Path.of("target/chash/located.tsv");

  private static RedisFleet fleet;
  private ShardedCacheManager manager;
  private UserService service;

  @BeforeAll
  static void startServers() {
    fleet = RedisFleet.start(3);
  }

  @AfterAll
  static void stopServers() {
    if (fleet != null) { // null when redis-server is missing and the tests were skipped
      fleet.close();
    }
  }

  @BeforeEach
  void startService() {
    fleet.reset();
    Map<String, String> env = new HashMap<>();
    for (String id : fleet.nodeIds()) {
      env.put(
          "CHASH_IT_" + id.toUpperCase(java.util.Locale.ROOT) + "_PORT",
          Integer.toString(fleet.server(id).port()));
    }
    ChashConfig config = ChashConfigs.load(CONFIG);
    manager =
        ShardedCaches.builder()
            .config(config)
            .nodeFactory(new RedisCacheNodeFactory(env::get))
            .build();
    ShardedCacheAspect.setManager(manager);
    service = new UserService();
  }

  @AfterEach
  void stopService() {
    ShardedCacheAspect.setManager(null);
    manager.close();
  }

  @Test
  void find_keysLandWhereChashLocateSays() throws IOException {
    Map<String, String> located = located();
    assertThat(located).hasSize(200);
    for (int id = 0; id < 200; id++) {
      service.find(id);
    }
    Map<String, Integer> perNode = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : located.entrySet()) {
      String redisKey = "chash:" + e.getKey();
      for (String node : fleet.nodeIds()) {
        boolean there = fleet.server(node).command("EXISTS", redisKey).equals(1L);
        assertThat(there)
            .as("%s on %s (chash:locate says %s)", redisKey, node, e.getValue())
            .isEqualTo(node.equals(e.getValue()));
      }
      perNode.merge(e.getValue(), 1, Integer::sum);
    }
    assertThat(perNode).containsOnlyKeys("r1", "r2", "r3");
    System.out.println("keys per node, as chash:locate said and Redis holds them: " + perNode);
  }

  @Test
  void find_secondCallIsServedFromRedis() {
    User first = service.find(42);
    User second = service.find(42);

    assertThat(second).isEqualTo(first).isEqualTo(new User(42, "user-42"));
    assertThat(service.bodyRuns("find", 42L)).isEqualTo(1);
    assertThat(manager.cacheStats().get("users").hitCount()).isEqualTo(1);
  }

  @Test
  void saveAndDelete_writeAndEvictOnTheOwner() {
    service.save(new User(7, "seven"));
    String owner = manager.ring().locate("users:7").id();
    assertThat(fleet.server(owner).keys("chash:*")).containsExactly("chash:users:7");
    assertThat(service.find(7)).isEqualTo(new User(7, "seven"));
    assertThat(service.bodyRuns("find", 7L)).isZero();

    service.delete(7);

    // the evict leaves at most a tombstone for the migration window (issue 30), never the value:
    // the next find is a miss that runs the body
    assertThat(service.find(7)).isEqualTo(new User(7, "user-7"));
    assertThat(service.bodyRuns("find", 7L)).isEqualTo(1);
  }

  @Test
  void find_killedServer_breaksNoCall() {
    String owner = manager.ring().locate("users:5").id();
    service.find(5);
    fleet.server(owner).kill();

    for (int i = 0; i < 10; i++) {
      assertThat(service.find(5)).isEqualTo(new User(5, "user-5"));
    }
    assertThat(manager.liveRing().nodes()).extracting(n -> n.id()).doesNotContain(owner);
    // once ejected, the fallback caches the key again: the body stopped running
    assertThat(service.bodyRuns("find", 5L)).isLessThanOrEqualTo(1 + 3 + 1);
  }

  @Test
  void clearReports_removesTheReportsKeysFromEveryServerAndNothingElse() {
    for (long id = 0; id < 30; id++) {
      service.summary(id);
      service.find(id);
    }
    for (String node : fleet.nodeIds()) {
      assertThat(fleet.server(node).keys("chash:reports:*")).as("reports on %s", node).isNotEmpty();
      fleet.server(node).command("SET", "other-app:key", "kept");
    }

    service.clearReports();

    for (String node : fleet.nodeIds()) {
      assertThat(fleet.server(node).keys("chash:reports:*")).as("reports on %s", node).isEmpty();
      assertThat(fleet.server(node).keys("chash:users:*")).as("users on %s", node).isNotEmpty();
      assertThat(fleet.server(node).keys("other-app:*")).containsExactly("other-app:key");
    }
    service.summary(1);
    assertThat(service.bodyRuns("summary", 1L)).isEqualTo(2);
  }

  /**
   * chash:locate's output for src/test/resources/locate-keys.txt (run by the build before the
   * tests).
   */
  private static Map<String, String> located() throws IOException {
    Map<String, String> located = new LinkedHashMap<>();
    for (String line : Files.readAllLines(LOCATED, StandardCharsets.UTF_8)) {
      String[] parts = line.split("\t");
      located.put(parts[0], parts[1]);
    }
    return located;
  }
}
