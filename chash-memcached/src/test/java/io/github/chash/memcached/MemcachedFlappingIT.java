package io.github.chash.memcached;

import io.github.chash.cache.RemoteFlappingScenario;
import io.github.chash.cache.TestFleet;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RemoteFlappingScenario}: m2 of three real memcached servers flaps. */
class MemcachedFlappingIT extends RemoteFlappingScenario {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(3);

  @Override
  protected TestFleet fleet() {
    return fleet;
  }

  @Override
  protected String victim() {
    return "m2";
  }
}
