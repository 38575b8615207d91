package io.github.chash.cache;

import io.github.chash.config.ChashConfigs;
import io.github.chash.config.KeyLayout;

/** {@link RandomKeysScenarios} on three in-process nodes. */
class LocalRandomKeysTest extends RandomKeysScenarios {
  @Override
  protected ShardedCacheManager manager(KeyLayout layout) {
    return ShardedCaches.create(
        ChashConfigs.parse(
            "nodes: [{id: a}, {id: b}, {id: c}]\n"
                + "caches:\n  users: { ttl: 10m, keys: "
                + layout.configName()
                + " }\n",
            "chash.yaml"));
  }
}
