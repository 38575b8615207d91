package io.github.chash.memcached;

import io.github.chash.cache.FleetProcessesScenario;
import io.github.chash.cache.LoopbackFleet;
import io.github.chash.redis.RedisFleet;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link FleetProcessesScenario} on five real memcached servers, the writes recorded in a Redis.
 */
class MemcachedFleetProcessesIT extends FleetProcessesScenario {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(5);
  @RegisterExtension static final RedisFleet recorder = RedisFleet.of(1);

  @Override
  protected LoopbackFleet<?> fleet() {
    return fleet;
  }

  @Override
  protected String recorderUri() {
    return recorder.server("r1").uri();
  }
}
