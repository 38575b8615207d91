package io.github.chash.redis;

import io.github.chash.cache.ServerProcesses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;

/**
 * One Sentinel-managed shard for tests: a primary, its replicas and three sentinels (quorum 2) that
 * monitor it as {@code shard-ID}, all real processes on free 127.0.0.1 ports. Skipped like the
 * other server tests when {@code redis-server} is missing.
 */
final class SentinelShard implements AutoCloseable {
  /** The longest any one wait of these tests may take (setup, a promotion, a reconnect). */
  static final Duration BOUND = Duration.ofSeconds(20);

  private static final long DOWN_AFTER_MILLIS = 1000;
  private static final long FAILOVER_TIMEOUT_MILLIS = 3000;

  final String id;
  final String master;
  private final int replicas;

  /** The primary it started with, then the replicas. */
  final List<RedisServerProcess> servers = new ArrayList<>();

  final List<RedisServerProcess> sentinels = new ArrayList<>();

  /** A shard of a primary and one replica. */
  SentinelShard(String id) {
    this(id, 1);
  }

  SentinelShard(String id, int replicas) {
    this.id = id;
    this.master = "shard-" + id;
    this.replicas = replicas;
  }

  /** {@return a shard of a primary and one replica, its servers and sentinels started and ready} */
  static SentinelShard started(String id) {
    SentinelShard shard = new SentinelShard(id);
    try {
      shard.startServers();
      shard.startSentinels();
      shard.awaitReady();
      return shard;
    } catch (RuntimeException e) {
      shard.close();
      throw e;
    }
  }

  void startServers() {
    RedisServerProcess primary = RedisServerProcess.start();
    servers.add(primary);
    for (int i = 0; i < replicas; i++) {
      servers.add(RedisServerProcess.startReplicaOf(primary));
    }
  }

  void startSentinels() {
    for (int i = 0; i < 3; i++) {
      sentinels.add(
          RedisServerProcess.startSentinel(
              master, servers.get(0), 2, DOWN_AFTER_MILLIS, FAILOVER_TIMEOUT_MILLIS));
    }
  }

  /** Waits until the replicas are in sync and every sentinel knows them and the two others. */
  void awaitReady() {
    for (RedisServerProcess replica : servers.subList(1, servers.size())) {
      await(
          master + " replica on port " + replica.port() + " in sync",
          () ->
              replica.command("INFO", "replication").toString().contains("master_link_status:up"));
    }
    for (RedisServerProcess sentinel : sentinels) {
      await(
          master + " sentinel on port " + sentinel.port() + " knows the others",
          () ->
              ((List<?>) sentinel.command("SENTINEL", "SENTINELS", master)).size() == 2
                  && ((List<?>) sentinel.command("SENTINEL", "REPLICAS", master)).size()
                      == replicas);
    }
  }

  /**
   * Waits until the primary's incarnation record names every replica an heir (each written {@code
   * run_id@offset@address}): a node names them within a second or two of connecting.
   */
  void awaitHeirNamed() {
    RedisServerProcess primary = servers.get(0);
    await(
        master + " names its replicas heirs",
        () -> {
          byte[] record = primary.getBytes("chash:incarnation");
          return record != null
              && java.util.Arrays.stream(
                          new String(record, java.nio.charset.StandardCharsets.US_ASCII).split(" "))
                      .filter(part -> part.contains("@"))
                      .count()
                  == replicas;
        });
  }

  /** {@code redis-sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/0#shard-ID}. */
  String uri() {
    return "redis-sentinel://"
        + sentinels.stream()
            .map(s -> ServerProcesses.LOOPBACK + ":" + s.port())
            .collect(Collectors.joining(","))
        + "/0#"
        + master;
  }

  /** Whether a sentinel names {@code server} as the shard's primary. */
  boolean namedPrimary(RedisServerProcess server) {
    for (RedisServerProcess sentinel : sentinels) {
      try {
        List<?> address = (List<?>) sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", master);
        if (Integer.parseInt(address.get(1).toString()) == server.port()) {
          return true;
        }
      } catch (RuntimeException notThisOne) {
        // try the next sentinel
      }
    }
    return false;
  }

  /** Polls every 10 ms until the condition holds, at most {@link #BOUND}. */
  static void await(String what, BooleanSupplier condition) {
    Awaitility.await(what + ": not within " + BOUND)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .atMost(BOUND)
        .until(condition::getAsBoolean);
  }

  @Override
  public void close() {
    sentinels.forEach(RedisServerProcess::close);
    servers.forEach(RedisServerProcess::close);
  }
}
