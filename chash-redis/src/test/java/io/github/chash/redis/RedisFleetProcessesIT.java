package io.github.chash.redis;

import io.github.chash.cache.FleetProcessesScenario;
import io.github.chash.cache.LoopbackFleet;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link FleetProcessesScenario} on four real redis-servers, the writes recorded in a fifth. */
class RedisFleetProcessesIT extends FleetProcessesScenario {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(5);

  @Override
  protected LoopbackFleet<?> fleet() {
    return fleet;
  }

  @Override
  protected String recorderUri() {
    return fleet.server("r5").uri();
  }
}
