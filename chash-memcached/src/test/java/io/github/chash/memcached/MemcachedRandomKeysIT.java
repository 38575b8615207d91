package io.github.chash.memcached;

import io.github.chash.cache.RandomKeysScenarios;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.KeyLayout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RandomKeysScenarios} on two real memcached servers (default 1 MB item limit); the verbatim
 * cache stores spymemcached's item format, as the migration page sets it up, so keys memcached
 * cannot hold are refused before they are sent.
 */
class MemcachedRandomKeysIT extends RandomKeysScenarios {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(2);

  @Override
  protected ShardedCacheManager manager(KeyLayout layout) {
    return fleet.manager(FAILOVER, layout);
  }
}
