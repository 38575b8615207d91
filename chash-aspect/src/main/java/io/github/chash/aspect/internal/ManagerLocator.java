package io.github.chash.aspect.internal;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Where the woven advice finds its manager: the one set programmatically ({@code
 * ShardedCacheAspect.setManager}), else the one built from {@code chash.yaml} on the class path,
 * once, at the first call that needs it. (Spring's {@link ShardedCacheInterceptor} asks the
 * context's bean between the two.) Thread-safe.
 */
public final class ManagerLocator {
  private static final Object LOCK = new Object();
  private static volatile ShardedCacheManager programmatic;
  private static volatile ShardedCacheManager classPathManager;

  private ManagerLocator() {}

  /**
   * Sets the manager every advice uses ahead of any other; {@code null} clears it.
   *
   * @param manager the manager, or null
   */
  public static void setProgrammatic(ShardedCacheManager manager) {
    programmatic = manager;
  }

  /** {@return the manager set programmatically, or null} */
  public static ShardedCacheManager programmatic() {
    return programmatic;
  }

  /**
   * {@return the programmatic manager, else the class path's}
   *
   * @throws IllegalStateException as {@link #classPathManager}
   */
  public static ShardedCacheManager current() {
    ShardedCacheManager m = programmatic;
    return m != null ? m : classPathManager();
  }

  /**
   * {@return the manager of the class path's {@code chash.yaml}, building it on first use}
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
              + " ShardedCacheAspect.setManager(manager), import"
              + " io.github.chash.aspect.spring.ShardedCacheAspectConfiguration into a Spring"
              + " context that has a ShardedCacheManager bean, or put "
              + name
              + " on the class path");
    }
    // ChashConfigs reads it as it reads a file: size cap, strict UTF-8, positions in messages
    try (InputStream yaml = in) {
      return ChashConfigs.load(yaml, name);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name + " from the class path", e);
    }
  }
}
