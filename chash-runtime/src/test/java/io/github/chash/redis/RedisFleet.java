package io.github.chash.redis;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TestFleet;
import io.github.chash.config.ChashConfigs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Several {@link RedisServerProcess}es with node ids {@code r1, r2, ...}, and the {@code nodes:}
 * block of a {@code chash.yaml} pointing at them. Closing it stops every server.
 *
 * <p>As a JUnit extension ({@code @RegisterExtension static final RedisFleet fleet =
 * RedisFleet.of(3);}) it starts the servers before a test class, brings back killed ones and
 * empties all of them before each test, and stops them after the class.
 */
public final class RedisFleet
    implements TestFleet, AutoCloseable, BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
  private final Map<String, RedisServerProcess> servers = new LinkedHashMap<>();
  private final int size;

  private RedisFleet(int size) {
    this.size = size;
  }

  /** A fleet of {@code n} servers that a test class's extension starts and stops. */
  public static RedisFleet of(int n) {
    return new RedisFleet(n);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    startServers();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    reset();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  /** Starts {@code n} servers without passwords. */
  public static RedisFleet start(int n) {
    RedisFleet fleet = new RedisFleet(n);
    fleet.startServers();
    return fleet;
  }

  private void startServers() {
    try {
      for (int i = 1; i <= size; i++) {
        servers.put("r" + i, RedisServerProcess.start());
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The server of a node id. */
  public RedisServerProcess server(String nodeId) {
    RedisServerProcess server = servers.get(nodeId);
    if (server == null) {
      throw new IllegalArgumentException("no server for node \"" + nodeId + "\"");
    }
    return server;
  }

  /** Node ids in order. */
  public List<String> nodeIds() {
    return new ArrayList<>(servers.keySet());
  }

  /** {@code nodes:} entries, one per server: {@code type: redis} with its loopback URI. */
  public String nodesYaml() {
    return nodesYaml(nodeIds());
  }

  /** {@code nodes:} entries of the given servers, in that order. */
  public String nodesYaml(List<String> ids) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : ids) {
      yaml.append("  - id: ")
          .append(id)
          .append('\n')
          .append("    type: redis\n")
          .append("    uri: ")
          .append(server(id).uri())
          .append('\n');
    }
    return yaml.toString();
  }

  /**
   * A manager over these servers, built from {@code chash.yaml} text (so the Redis node factory is
   * service-loaded), with one cache {@code users} (ttl 10m) and the given failover settings.
   *
   * @param failover the {@code failover:} block's flow mapping, e.g. {@code "{ failureLimit: 3 }"}
   */
  public ShardedCacheManager manager(String failover) {
    return manager(failover, "");
  }

  /** {@link #manager(String)} with more top-level blocks, e.g. {@code "redis: { ... }\n"}. */
  public ShardedCacheManager manager(String failover, String moreYaml) {
    String yaml =
        nodesYaml()
            + "caches:\n  users: { ttl: 10m }\n"
            + "failover: "
            + failover
            + "\n"
            + moreYaml;
    return connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")));
  }

  /**
   * Waits (at most 10 s) until every node of the manager answers a ping. A manager waits one
   * connect timeout for its nodes, but the first Lettuce connection of a JVM also pays for Netty's
   * start-up, which on a loaded machine takes longer; tests that write right away need the
   * connections up.
   */
  public static ShardedCacheManager connected(ShardedCacheManager manager) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    for (var node : manager.ring().nodes()) {
      while (true) {
        try {
          manager.node(node.id()).ping();
          break;
        } catch (RuntimeException notYet) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("node " + node.id() + " never answered", notYet);
          }
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        }
      }
    }
    return manager;
  }

  /** Brings back killed servers and empties all of them. */
  public void reset() {
    for (RedisServerProcess server : servers.values()) {
      if (!server.isRunning()) {
        server.restart();
      }
      server.command("FLUSHALL");
    }
  }

  @Override
  public void close() {
    servers.values().forEach(RedisServerProcess::close);
  }
}
