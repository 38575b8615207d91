package io.github.chash.redis;

import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ManagerHooks;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.KeyLayout;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Several {@link RedisServerProcess}es with node ids {@code r1, r2, ...} ({@link LoopbackFleet}):
 * nodes of {@code type: redis}, emptied with {@code FLUSHALL}.
 *
 * <p>With {@code -Dchash.fleet.near=true}, the prefixed {@code users} cache of the tests that take
 * its settings from {@link #users} (the flapping, membership and protocol scenarios) has a near
 * cache, so that those tests check their promises with one on.
 */
public final class RedisFleet extends LoopbackFleet<RedisServerProcess> {
  private static final boolean NEAR = Boolean.getBoolean("chash.fleet.near");

  private RedisFleet(int size) {
    super(size, "r", "redis");
  }

  /** A fleet of {@code n} servers that a test class's extension starts and stops. */
  public static RedisFleet of(int n) {
    return new RedisFleet(n);
  }

  /** Starts {@code n} servers without passwords. */
  public static RedisFleet start(int n) {
    RedisFleet fleet = new RedisFleet(n);
    fleet.startServers();
    return fleet;
  }

  /**
   * A manager with one node {@code id} of {@code type: redis} at {@code uri}, a cache {@code users}
   * with the given settings and the given failover settings; it returns once the node answers. A
   * node id no other test uses keeps what the node logs apart from every other manager's in the
   * same JVM, e.g. one left by another test class whose server had the same port.
   */
  public static ShardedCacheManager oneNode(String id, String uri, String failover, String users) {
    String yaml =
        "nodes:\n  - id: "
            + id
            + "\n    type: redis\n    uri: "
            + uri
            + "\ncaches:\n  users: "
            + users
            + "\nfailover: "
            + failover
            + "\n";
    return connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")));
  }

  /** {@return the id of the node that the configuration's ring places the routing key on} */
  static String owner(io.github.chash.config.ChashConfig config, String routingKey) {
    return io.github.chash.ring.Rings.create(
            config.ring(),
            config.nodes().stream().map(io.github.chash.config.NodeConfig::toNode).toList())
        .locate(io.github.chash.cache.VerbatimKeys.key(routingKey))
        .id();
  }

  /**
   * Waits until the manager's invalidation channel to the node is on, or the seconds pass; {@return
   * whether it is on}
   */
  public static boolean awaitTrackingOn(ShardedCacheManager manager, String nodeId, long seconds) {
    try {
      Awaitility.await("channel to " + nodeId + " on")
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(5))
          .atMost(Duration.ofSeconds(seconds))
          .until(() -> ManagerHooks.tracking(manager, nodeId));
      return true;
    } catch (ConditionTimeoutException stillOff) {
      return false;
    }
  }

  @Override
  protected RedisServerProcess startServer() {
    return RedisServerProcess.start();
  }

  @Override
  public String users(KeyLayout layout) {
    return NEAR && layout == KeyLayout.PREFIXED
        ? "{ ttl: 10m, near: { maximumSize: 100000, ttl: 1m } }"
        : super.users(layout);
  }

  @Override
  protected void empty(RedisServerProcess server) {
    server.command("FLUSHALL");
  }
}
