package io.github.chash.memcached;

import io.github.chash.cache.CacheNodeFactory;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.MembershipProtocolScenarios;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MembershipProtocolScenarios} on four real memcached servers, which cannot list their keys:
 * a leftover sweep cannot delete what it cannot find.
 */
class MemcachedProtocolScenariosIT extends MembershipProtocolScenarios {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(4);

  @Override
  protected LoopbackFleet<?> fleet() {
    return fleet;
  }

  @Override
  protected CacheNodeFactory nodeFactory() {
    return new MemcachedCacheNodeFactory();
  }

  @Override
  protected int serverConnections(String nodeId) {
    return (int) fleet.server(nodeId).stat("curr_connections");
  }
}
