package io.github.chash.memcached;

import io.github.chash.cache.RemoteFlappingScenario;
import io.github.chash.cache.ShardedCacheManager;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RemoteFlappingScenario}: m2 of three real memcached servers flaps. */
class MemcachedFlappingIT extends RemoteFlappingScenario {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(3);

  @Override
  protected ShardedCacheManager manager() {
    return fleet.manager(FAILOVER);
  }

  @Override
  protected String victim() {
    return "m2";
  }

  @Override
  protected void kill() {
    fleet.server(victim()).kill();
  }

  @Override
  protected void restart() {
    fleet.server(victim()).restart();
  }

  @Override
  protected boolean isRunning() {
    return fleet.server(victim()).isRunning();
  }
}
