package io.github.chash.memcached;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TestFleet;
import io.github.chash.config.ChashConfigs;
import io.github.chash.redis.RedisFleet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Several {@link MemcachedServerProcess}es with node ids {@code m1, m2, ...}, and the {@code
 * nodes:} block of a {@code chash.yaml} pointing at them; {@link RedisFleet}'s twin. As a JUnit
 * extension ({@code @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(3);})
 * it starts the servers before a test class, brings back killed or frozen ones and empties all of
 * them before each test, and stops them after the class.
 */
public final class MemcachedFleet
    implements TestFleet, AutoCloseable, BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
  private final Map<String, MemcachedServerProcess> servers = new LinkedHashMap<>();
  private final int size;

  private MemcachedFleet(int size) {
    this.size = size;
  }

  /** A fleet of {@code n} servers that a test class's extension starts and stops. */
  public static MemcachedFleet of(int n) {
    return new MemcachedFleet(n);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    try {
      for (int i = 1; i <= size; i++) {
        servers.put("m" + i, MemcachedServerProcess.start());
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    reset();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  /** The server of a node id. */
  public MemcachedServerProcess server(String nodeId) {
    MemcachedServerProcess server = servers.get(nodeId);
    if (server == null) {
      throw new IllegalArgumentException("no server for node \"" + nodeId + "\"");
    }
    return server;
  }

  /** Node ids in order. */
  public List<String> nodeIds() {
    return new ArrayList<>(servers.keySet());
  }

  /** {@code nodes:} entries, one per server: {@code type: memcached} with its loopback URI. */
  public String nodesYaml() {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : nodeIds()) {
      yaml.append("  - id: ")
          .append(id)
          .append('\n')
          .append("    type: memcached\n")
          .append("    uri: ")
          .append(server(id).uri())
          .append('\n');
    }
    return yaml.toString();
  }

  /**
   * A manager over these servers, built from {@code chash.yaml} text (so the memcached node factory
   * is service-loaded), with one cache {@code users} (ttl 10m) and the given failover settings; it
   * returns once every node answers (at most 10 s).
   */
  public ShardedCacheManager manager(String failover) {
    return manager(failover, "");
  }

  /** {@link #manager(String)} with more top-level blocks, e.g. {@code "memcached: { ... }\n"}. */
  public ShardedCacheManager manager(String failover, String moreYaml) {
    String yaml =
        nodesYaml()
            + "caches:\n  users: { ttl: 10m }\n"
            + "failover: "
            + failover
            + "\n"
            + moreYaml;
    return RedisFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")));
  }

  /** Thaws and brings back killed servers, and empties all of them. */
  public void reset() {
    for (MemcachedServerProcess server : servers.values()) {
      if (!server.isRunning()) {
        server.restart();
      } else {
        server.resume();
      }
      server.flushAll();
    }
  }

  @Override
  public void close() {
    servers.values().forEach(MemcachedServerProcess::close);
  }
}
