package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ManagerHooks;
import io.github.chash.cache.RingKeys;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import io.github.chash.internal.cache.InterceptedCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 40: a Redis server that restarts from a snapshot older than the writes it acknowledged (an
 * RDB file saved before them, as production Redis persists; an AOF folder or a VM restored to an
 * earlier state is the same for the client) must not serve what it restored. Before the server
 * incarnation ({@code ServerIncarnation}), each of these read 298-300 of 300 keys stale. Each
 * repetition writes v1 of 300 keys on one server, saves a snapshot, writes v2 of all of them, and
 * brings the server back from the snapshot; then every read must be v2 or a miss.
 */
class RedisRestartIT {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  private static final ValueType STRING = ValueType.of(String.class);
  private static final int KEYS = 300;

  private final String victim = fleet.nodeIds().get(0);

  @AfterEach
  void forgetTheSnapshot() {
    // the next test's restart must not find this one's file: an empty snapshot replaces it
    RedisServerProcess server = fleet.server(victim);
    if (server.isRunning()) {
      server.command("CONFIG", "SET", "appendonly", "no");
      server.command("FLUSHALL");
      server.command("SAVE");
    }
  }

  private static final String FAILOVER = "{ failureLimit: 3, retryAfter: 30s, timeout: 500ms }";

  private static ChashConfig config(String failover) {
    String yaml =
        fleet.nodesYaml() + "caches:\n  users: { ttl: 10m }\n" + "failover: " + failover + "\n";
    return ChashConfigs.parse(yaml, "chash.yaml");
  }

  private static ShardedCacheManager manager(ChashConfig config) {
    return RedisFleet.connected(ShardedCaches.create(config));
  }

  /** Writes v1, saves the snapshot, writes v2: returns the keys, all of them on the victim. */
  private List<String> writeAndSnapshot(ShardedCacheManager manager, InterceptedCache users) {
    List<String> keys = RingKeys.keysOwnedBy(manager, users, victim, KEYS);
    keys.forEach(k -> users.put(k, "v1"));
    fleet.server(victim).command("SAVE");
    keys.forEach(k -> users.put(k, "v2"));
    return keys;
  }

  /** Reads every key once: the ones that read v1 (stale). */
  private static List<String> staleReads(InterceptedCache users, List<String> keys) {
    List<String> stale = new ArrayList<>();
    for (String key : keys) {
      Object got = users.getIfPresent(key, STRING);
      assertThat(got).as(key).isIn("v2", null);
      if ("v1".equals(got)) {
        stale.add(key);
      }
    }
    return stale;
  }

  /** Kills the victim's server and starts it again, from the snapshot, with no call meanwhile. */
  private void restartFromSnapshot() {
    RedisServerProcess server = fleet.server(victim);
    server.kill();
    server.restart();
    assertThat(server.getEntry("chash:" + "missing:key")).isNull(); // it answers
  }

  @RepeatedTest(5)
  void quietRestartFromAnOlderSnapshot_servesNothingItRestored() {
    try (ShardedCacheManager manager = manager(config(FAILOVER))) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = writeAndSnapshot(manager, users);

      restartFromSnapshot();

      assertThat(fleet.server(victim).keys("chash:users:*")).as("restored").hasSize(KEYS);
      // the first call after the reconnect may fail on its dropped connection; none reads v1
      assertThat(staleReads(users, keys)).isEmpty();
      assertThat(staleReads(users, keys)).isEmpty();
      // and the node serves again: a new write is read back
      users.put(keys.get(0), "v3");
      assertThat(users.getIfPresent(keys.get(0), STRING)).isEqualTo("v3");
    }
  }

  /**
   * The AOF row: the server persists by append-only files, fsynced at every write, and comes back
   * from a copy of them taken between v1 and v2 (a host crash that lost the page cache, a VM
   * snapshot, a restored volume).
   */
  @RepeatedTest(5)
  void quietRestartFromOlderAppendOnlyFiles_servesNothingItRestored() throws IOException {
    RedisServerProcess server = fleet.server(victim);
    Path files = server.dir().resolve("appendonlydir");
    Path copy = Files.createTempDirectory("chash-aof-");
    try (ShardedCacheManager manager = manager(config(FAILOVER))) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = RingKeys.keysOwnedBy(manager, users, victim, KEYS);
      server.command("CONFIG", "SET", "appendfsync", "always");
      server.command("CONFIG", "SET", "appendonly", "yes"); // a rewrite makes the first files
      Awaitility.await("the AOF rewrite of port " + server.port())
          .atMost(Duration.ofSeconds(30))
          .until(() -> aofRewriteDone(server));
      keys.forEach(k -> users.put(k, "v1"));
      copyTree(files, copy);
      keys.forEach(k -> users.put(k, "v2"));

      server.kill();
      deleteTree(files);
      copyTree(copy, files);
      server.restartFromAppendOnlyFiles();

      assertThat(server.keys("chash:users:*")).as("restored from the AOF").hasSize(KEYS);
      assertThat(staleReads(users, keys)).isEmpty();
      assertThat(staleReads(users, keys)).isEmpty();
      users.put(keys.get(0), "v3");
      assertThat(users.getIfPresent(keys.get(0), STRING)).isEqualTo("v3");
    } finally {
      deleteTree(copy);
    }
  }

  private static boolean aofRewriteDone(RedisServerProcess server) {
    String info = (String) server.command("INFO", "persistence");
    return info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0");
  }

  private static void copyTree(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (var files = Files.list(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var files = Files.walk(dir)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }

  @RepeatedTest(5)
  void restartWhileEjected_withOnRejoinKeep_servesNothingItRestored() {
    ManagerHooks.Clock clock = new ManagerHooks.Clock();
    ChashConfig config =
        config("{ failureLimit: 3, retryAfter: 1s, timeout: 200ms, onRejoin: keep }");
    try (ShardedCacheManager manager =
        RedisFleet.connected(ManagerHooks.manualManager(config, clock))) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = writeAndSnapshot(manager, users);

      fleet.server(victim).kill();
      for (int i = 0; i < 9 && RingKeys.isLive(manager, victim); i++) {
        assertThat(users.getIfPresent(keys.get(i), STRING)).isNull();
      }
      assertThat(RingKeys.isLive(manager, victim)).as("%s ejected", victim).isFalse();
      fleet.server(victim).restart();
      RedisFleet.connected(manager); // the node's connection is back: its probe can answer
      clock.advance(Duration.ofSeconds(1));
      ManagerHooks.probe(manager);
      assertThat(RingKeys.isLive(manager, victim)).as("%s readmitted", victim).isTrue();

      assertThat(fleet.server(victim).keys("chash:users:*")).as("restored, kept").hasSize(KEYS);
      assertThat(staleReads(users, keys)).isEmpty();
    }
  }

  @RepeatedTest(5)
  void removedRestartedAndAddedBackWithinItsWindow_servesNothingItRestored() {
    ChashConfig config = config(FAILOVER);
    NodeConfig node =
        config.nodes().stream().filter(n -> n.id().equals(victim)).findFirst().orElseThrow();
    try (ShardedCacheManager manager = manager(config)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = writeAndSnapshot(manager, users);

      manager.removeNode(victim);
      restartFromSnapshot();
      manager.addNode(node);

      assertThat(staleReads(users, keys)).isEmpty();
      assertThat(staleReads(users, keys)).isEmpty();
    }
  }
}
