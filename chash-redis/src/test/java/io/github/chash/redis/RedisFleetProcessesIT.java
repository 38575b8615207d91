package io.github.chash.redis;

import io.github.chash.cache.FleetProcessesScenario;
import io.github.chash.cache.LoopbackFleet;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link FleetProcessesScenario} on five real redis-servers, the writes recorded in a sixth. */
class RedisFleetProcessesIT extends FleetProcessesScenario {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(6);

  @Override
  protected LoopbackFleet<?> fleet() {
    return fleet;
  }

  @Override
  protected String recorderUri() {
    return fleet.server("r6").uri();
  }
}
