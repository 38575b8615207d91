package io.github.chash.aspect.internal;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The manager built from {@code chash.yaml} on the class path, the aspect's last resort; built once,
 * at the first call that needs it. Thread-safe.
 */
public final class ManagerLocator {
  private static final Object LOCK = new Object();
  private static volatile ShardedCacheManager classPathManager;

  private ManagerLocator() {}

  /**
   * Returns the manager of the class path's {@code chash.yaml}, building it on first use.
   *
   * @throws IllegalStateException if there is no {@code chash.yaml}, saying how to provide a
   *     manager; or if it is invalid, with the configuration's messages
   */
  public static ShardedCacheManager classPathManager() {
    ShardedCacheManager m = classPathManager;
    if (m != null) {
      return m;
    }
    synchronized (LOCK) {
      if (classPathManager == null) {
        classPathManager = ShardedCaches.create(loadConfig());
      }
      return classPathManager;
    }
  }

  private static ChashConfig loadConfig() {
    String name = ChashConfigs.DEFAULT_NAME;
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    InputStream in = loader == null ? null : loader.getResourceAsStream(name);
    if (in == null) {
      in = ManagerLocator.class.getClassLoader().getResourceAsStream(name);
    }
    if (in == null) {
      throw new IllegalStateException(
          "no sharded cache manager for the chash aspect: call"
              + " ShardedCacheAspect.setManager(manager), declare the aspect as a Spring bean"
              + " (io.github.chash.aspect.spring.ShardedCacheAspectConfiguration) next to a"
              + " ShardedCacheManager bean, or put "
              + name
              + " on the class path");
    }
    try (InputStream yaml = in) {
      return ChashConfigs.parse(new String(yaml.readAllBytes(), StandardCharsets.UTF_8), name);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name + " from the class path", e);
    }
  }
}
