package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link MembershipProtocolScenarios} on four simulated servers ({@link SimFleet}), so that a
 * contributor without redis-server or memcached installed runs every scenario, and a protocol bug
 * they catch turns the build red instead of skipping. Every manager of a test (one per JVM the
 * scenario stands for) reaches the same {@link SimServer}s through nodes of {@code type: sim};
 * freezing a server holds its requests for real (a call times out after the node timeout, its
 * request applied once the server thaws), so the scenarios run unchanged. Twice: servers that
 * compare as Redis does (a value's bytes) and list their keys, and servers that compare as
 * memcached does (an item's {@code cas} unique) and cannot list theirs.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(SimProtocolScenariosTest.Servers.class)
class SimProtocolScenariosTest extends MembershipProtocolScenarios {
  /** How the simulated servers behave. */
  enum Servers {
    /** Compare a value's bytes, as chash's Redis scripts do; list their keys (SCAN). */
    REDIS_LIKE(SimServer.Compare.BYTES, true),
    /** Compare an item's {@code cas} unique, as memcached does; cannot list their keys. */
    MEMCACHED_LIKE(SimServer.Compare.CAS, false);

    final SimServer.Compare compare;
    final boolean scannable;

    Servers(SimServer.Compare compare, boolean scannable) {
      this.compare = compare;
      this.scannable = scannable;
    }
  }

  private final Servers servers;
  private final SimFleet fleet;

  SimProtocolScenariosTest(Servers servers) {
    this.servers = servers;
    this.fleet = new SimFleet(servers.compare, servers.scannable); // new, so empty, per test
  }

  @Override
  protected ScenarioFleet fleet() {
    return fleet;
  }

  @Override
  protected CacheNodeFactory nodeFactory() {
    return fleet.factory();
  }

  @Override
  protected ShardedCacheManager manualManager(ChashConfig config, ManagerHooks.Clock clock) {
    return ManagerHooks.manualManager(config, clock, fleet.factory());
  }

  @Override
  protected int serverConnections(String nodeId) {
    return fleet.connections(nodeId);
  }

  /**
   * {@link #olderJvmsSweepOfANewerRingsTarget_leavesNoOlderValueReadable()}, as in {@code
   * RedisProtocolScenariosIT}: not on memcached-like servers, which cannot list their keys, so no
   * sweep deletes a leftover there and there is no moment between its two deletes to read in.
   */
  @Test
  void olderJvmsSweep_ofACopyThatIsANewerRingsTarget_leavesNoOlderValueReadable() {
    Assumptions.assumeTrue(
        servers.scannable,
        "memcached-like servers cannot list their keys: a sweep deletes no leftover there");
    olderJvmsSweepOfANewerRingsTarget_leavesNoOlderValueReadable();
  }
}
