package io.github.chash.redis;

import io.github.chash.cache.RemoteFlappingScenario;
import io.github.chash.cache.TestFleet;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RemoteFlappingScenario}: r2 of three real redis-servers flaps. */
class RedisFlappingIT extends RemoteFlappingScenario {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  @Override
  protected TestFleet fleet() {
    return fleet;
  }

  @Override
  protected String victim() {
    return "r2";
  }
}
