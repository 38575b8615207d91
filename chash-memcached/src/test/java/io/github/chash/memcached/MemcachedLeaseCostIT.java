package io.github.chash.memcached;

import io.github.chash.cache.LeaseCostScenario;
import io.github.chash.cache.LoopbackFleet;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link LeaseCostScenario} on one real memcached server. */
class MemcachedLeaseCostIT extends LeaseCostScenario {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(1);

  @Override
  protected LoopbackFleet<?> fleet() {
    return fleet;
  }
}
