package io.github.chash.it.redisonly;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.config.ChashConfigs;
import java.util.List;

/** User profiles cached on Redis servers: what an application on chash-redis writes. */
public final class Profiles implements AutoCloseable {
  private final ShardedCacheManager manager;
  private final TypedCache<Object, String> names;

  /**
   * A cache of profile names over the given Redis servers.
   *
   * @param ports the servers' ports on 127.0.0.1
   */
  public Profiles(List<Integer> ports) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (int i = 0; i < ports.size(); i++) {
      yaml.append("  - { id: r")
          .append(i + 1)
          .append(", type: redis, uri: \"redis://127.0.0.1:")
          .append(ports.get(i))
          .append("\" }\n");
    }
    yaml.append("caches:\n  profiles:\n    ttl: 5m\n");
    manager = ShardedCaches.create(ChashConfigs.parse(yaml.toString(), "chash.yaml"));
    names = manager.cache("profiles").typed(String.class);
  }

  /**
   * Caches a profile's name.
   *
   * @param id the profile
   * @param name its name
   */
  public void put(long id, String name) {
    names.put(id, name);
  }

  /**
   * {@return the cached name, or null}
   *
   * @param id the profile
   */
  public String name(long id) {
    return names.getIfPresent(id);
  }

  /** {@return the manager, for what a test looks at} */
  public ShardedCacheManager manager() {
    return manager;
  }

  @Override
  public void close() {
    manager.close();
  }
}
