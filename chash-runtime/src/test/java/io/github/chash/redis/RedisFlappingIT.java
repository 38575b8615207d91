package io.github.chash.redis;

import io.github.chash.cache.RemoteFlappingScenario;
import io.github.chash.cache.ShardedCacheManager;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RemoteFlappingScenario}: r2 of three real redis-servers flaps. */
class RedisFlappingIT extends RemoteFlappingScenario {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  @Override
  protected ShardedCacheManager manager() {
    return fleet.manager(FAILOVER);
  }

  @Override
  protected String victim() {
    return "r2";
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
