package io.github.chash.cache;

import io.github.chash.config.ChashConfigs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Several {@link LoopbackServer}s with node ids {@code <prefix>1, <prefix>2, ...}, the {@code
 * nodes:} block of a {@code chash.yaml} pointing at them, and managers over them; shared by {@code
 * RedisFleet} and {@code MemcachedFleet}. Closing it stops every server.
 *
 * <p>As a JUnit extension ({@code @RegisterExtension static final RedisFleet fleet =
 * RedisFleet.of(3);}) it starts the servers before a test class, brings back killed or frozen ones
 * and empties all of them before each test, and stops them after the class.
 *
 * @param <S> the servers' type
 */
public abstract class LoopbackFleet<S extends LoopbackServer>
    implements TestFleet, AutoCloseable, BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
  private final Map<String, S> servers = new LinkedHashMap<>();
  private final int size;
  private final String idPrefix;
  private final String type;

  /**
   * @param size how many servers
   * @param idPrefix their node ids' prefix ({@code r} gives {@code r1, r2, ...})
   * @param type their nodes' {@code type} in {@code chash.yaml}
   */
  protected LoopbackFleet(int size, String idPrefix, String type) {
    this.size = size;
    this.idPrefix = idPrefix;
    this.type = type;
  }

  /** {@return a newly started server} */
  protected abstract S startServer();

  /** Empties a running server. */
  protected abstract void empty(S server);

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

  /** Starts the servers; if one cannot start, stops those that did. */
  protected final void startServers() {
    try {
      for (int i = 1; i <= size; i++) {
        servers.put(idPrefix + i, startServer());
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The server of a node id. */
  @Override
  public final S server(String nodeId) {
    S server = servers.get(nodeId);
    if (server == null) {
      throw new IllegalArgumentException("no server for node \"" + nodeId + "\"");
    }
    return server;
  }

  /** Node ids in order. */
  @Override
  public final List<String> nodeIds() {
    return new ArrayList<>(servers.keySet());
  }

  /** {@code nodes:} entries, one per server, each of this fleet's type with its loopback URI. */
  public final String nodesYaml() {
    return nodesYaml(nodeIds());
  }

  /** {@code nodes:} entries of the given servers, in that order. */
  @Override
  public final String nodesYaml(List<String> ids) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : ids) {
      yaml.append("  - id: ")
          .append(id)
          .append('\n')
          .append("    type: ")
          .append(type)
          .append('\n')
          .append("    uri: ")
          .append(server(id).uri())
          .append('\n');
    }
    return yaml.toString();
  }

  /**
   * A manager over these servers, built from {@code chash.yaml} text (so the node factory is
   * service-loaded), with one cache {@code users} (ttl 10m) and the given failover settings; it
   * returns once every node answers (at most 10 s).
   *
   * @param failover the {@code failover:} block's flow mapping, e.g. {@code "{ failureLimit: 3 }"}
   */
  @Override
  public final ShardedCacheManager manager(String failover) {
    return manager(failover, "");
  }

  /** {@link #manager(String)} with more top-level blocks, e.g. {@code "redis: { ... }\n"}. */
  public final ShardedCacheManager manager(String failover, String moreYaml) {
    return managerWithUsers(failover, "{ ttl: 10m }", moreYaml);
  }

  @Override
  public final ShardedCacheManager managerWithUsers(String failover, String users) {
    return managerWithUsers(failover, users, "");
  }

  private ShardedCacheManager managerWithUsers(String failover, String users, String moreYaml) {
    String yaml =
        nodesYaml()
            + "caches:\n  users: "
            + users
            + "\n"
            + "failover: "
            + failover
            + "\n"
            + moreYaml;
    return connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")));
  }

  /**
   * Waits (at most 10 s) until every node of the manager answers a ping. A manager waits one
   * connect timeout for its nodes, but the first client connection of a JVM also pays for its
   * library's start-up (Netty's, for Lettuce), which on a loaded machine takes longer; tests that
   * write right away need the connections up.
   */
  public static ShardedCacheManager connected(ShardedCacheManager manager) {
    // the nodes not heard from yet, in ring order: each is pinged until it answers, then the next
    Deque<String> silent = new ConcurrentLinkedDeque<>();
    manager.ring().nodes().forEach(node -> silent.add(node.id()));
    try {
      Awaitility.await("every node answered")
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(20))
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptionsInstanceOf(RuntimeException.class) // not yet
          .until(
              () -> {
                for (String id = silent.peek(); id != null; id = silent.peek()) {
                  manager.node(id).ping();
                  silent.poll();
                }
                return true;
              });
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException("node " + silent.peek() + " never answered", e);
    }
    return manager;
  }

  /** Thaws frozen servers, brings back killed ones, and empties all of them. */
  public final void reset() {
    for (S server : servers.values()) {
      if (!server.isRunning()) {
        server.restart();
      } else {
        server.resume();
      }
      empty(server);
    }
  }

  @Override
  public final void close() {
    servers.values().forEach(LoopbackServer::close);
  }
}
