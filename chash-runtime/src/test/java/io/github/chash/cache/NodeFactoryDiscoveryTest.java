package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.RingSettings;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Enumeration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A remote node type plugs in through {@code META-INF/services}, as the Redis module does. */
class NodeFactoryDiscoveryTest {

  /** Stands in for the Redis factory: a provider the cache package knows nothing about. */
  public static final class RemoteLikeFactory implements CacheNodeFactory {
    /** ServiceLoader needs it. */
    public RemoteLikeFactory() {}

    @Override
    public NodeType type() {
      return NodeType.REDIS;
    }

    @Override
    public CacheNode create(NodeConfig node, ChashConfig config) {
      return CacheNodes.local(node.id(), 1000);
    }
  }

  @Test
  void create_findsFactoriesThroughServiceLoader(@TempDir Path dir) throws Exception {
    Path services = dir.resolve("META-INF/services");
    Files.createDirectories(services);
    Files.writeString(
        services.resolve(CacheNodeFactory.class.getName()),
        "# test provider\n" + RemoteLikeFactory.class.getName() + "\n");
    ChashConfig config =
        ChashConfig.builder()
            .source("chash.yaml")
            .ring(RingSettings.defaults())
            .node(NodeConfig.local("a"))
            .node(NodeConfig.redis("r1", "redis://127.0.0.1:1"))
            .cache(new CacheConfig("users", Duration.ofMinutes(1)))
            .build();

    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    // the parent's own providers (the real Redis factory) are hidden: only the test provider counts
    try (URLClassLoader loader =
        new URLClassLoader(
            new URL[] {dir.toUri().toURL()}, withoutServices(getClass().getClassLoader()))) {
      thread.setContextClassLoader(loader);
      try (ShardedCacheManager manager = ShardedCaches.create(config)) {
        InterceptedCache users = InterceptedCache.of(manager.cache("users"));
        for (int i = 0; i < 50; i++) {
          users.put(users.routingKey(i, "T.m(id)"), i);
        }
        assertThat(manager.node("r1").estimatedSize()).isPositive();
        assertThat(manager.node("a").estimatedSize() + manager.node("r1").estimatedSize())
            .isEqualTo(50);
      }
    } finally {
      thread.setContextClassLoader(before);
    }
  }

  /**
   * A loader that finds no {@code META-INF/services} files, for tests that choose the providers.
   */
  static ClassLoader withoutServices(ClassLoader parent) {
    return new ClassLoader(parent) {
      @Override
      public Enumeration<URL> getResources(String name) throws IOException {
        return name.startsWith("META-INF/services/")
            ? Collections.emptyEnumeration()
            : super.getResources(name);
      }
    };
  }
}
