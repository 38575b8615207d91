package io.github.chash.redis;

import io.github.chash.cache.RandomKeysScenarios;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.KeyLayout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RandomKeysScenarios} on two real Redis servers. */
class RedisRandomKeysIT extends RandomKeysScenarios {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(2);

  @Override
  protected ShardedCacheManager manager(KeyLayout layout) {
    return fleet.manager(FAILOVER, layout);
  }
}
