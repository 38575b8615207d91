package io.github.chash.redis;

import io.github.chash.cache.LeaseCostScenario;
import io.github.chash.cache.LoopbackFleet;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link LeaseCostScenario} on one real redis-server. */
class RedisLeaseCostIT extends LeaseCostScenario {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(1);

  @Override
  protected LoopbackFleet<?> fleet() {
    return fleet;
  }
}
