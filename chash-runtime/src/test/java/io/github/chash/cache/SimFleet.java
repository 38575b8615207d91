package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Four simulated servers ({@link SimServer}, called directly by the test's threads) with node ids
 * {@code s1..s4} of node {@code type: sim}, whose nodes ({@link SimNode}) its {@link #factory()}
 * makes: every manager of a test over the same servers, as JVMs over shared Redis or memcached
 * servers. Freezing a server holds its requests until it thaws (a call times out, its request
 * applied later), killing it loses what it held; its connections are its nodes not yet closed. Made
 * new for each test, so each starts empty.
 */
final class SimFleet implements ScenarioFleet {
  /** The nodes' {@code type} in {@code chash.yaml}. */
  static final NodeType TYPE = NodeType.of("sim");

  /**
   * A call to a frozen server fails after this share of the node timeout, in real time. The
   * managers of the scenarios run on a clock the test moves, so the wait's length shows only in how
   * long a test takes and in how many callers overlap while one waits. The full timeout: a sweep
   * while the new owner is frozen used to wait once per moved key (about 480 times, 48 s), and now
   * waits on none (rule 6), which the test's length shows.
   */
  static final int TIMEOUT_SHARE = 1;

  private final Map<String, SimServer> servers = new LinkedHashMap<>();
  private final Map<String, Integer> made = new ConcurrentHashMap<>();

  /**
   * @param compare how the servers' conditional calls compare ({@code BYTES} as Redis, {@code CAS}
   *     as memcached)
   * @param scannable whether the servers list their keys for a sweep (Redis) or not (memcached)
   */
  SimFleet(SimServer.Compare compare, boolean scannable) {
    for (int i = 1; i <= 4; i++) {
      String id = "s" + i;
      servers.put(id, SimServer.calledDirectly(id, compare, scannable));
    }
  }

  SimServer sim(String nodeId) {
    SimServer server = servers.get(nodeId);
    if (server == null) {
      throw new IllegalArgumentException("no server for node \"" + nodeId + "\"");
    }
    return server;
  }

  @Override
  public ScenarioServer server(String nodeId) {
    SimServer sim = sim(nodeId);
    return new ScenarioServer() {
      @Override
      public boolean isRunning() {
        return sim.runningNow();
      }

      @Override
      public void kill() {
        sim.killNow();
      }

      @Override
      public void pause() {
        sim.freezeNow();
      }

      @Override
      public void resume() {
        sim.thawNow();
      }

      @Override
      public void restart() {
        sim.startNow();
      }
    };
  }

  @Override
  public List<String> nodeIds() {
    return new ArrayList<>(servers.keySet());
  }

  @Override
  public String nodesYaml(List<String> ids) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : ids) {
      sim(id);
      yaml.append("  - id: ").append(id).append("\n    type: ").append(TYPE).append('\n');
    }
    return yaml.toString();
  }

  /** {@return how many client connections the node's server has open: its nodes not closed} */
  int connections(String nodeId) {
    return sim(nodeId).connections.get();
  }

  /** {@return the factory of the nodes of {@code type: sim}: clients of this fleet's servers} */
  CacheNodeFactory factory() {
    return new CacheNodeFactory() {
      @Override
      public NodeType type() {
        return TYPE;
      }

      @Override
      public CacheNode create(NodeConfig node, ChashConfig config) {
        int generation = made.merge(node.id(), 1, Integer::sum);
        return new SimNode(
            sim(node.id()), config.failover().timeout().toNanos() / TIMEOUT_SHARE, generation);
      }
    };
  }
}
