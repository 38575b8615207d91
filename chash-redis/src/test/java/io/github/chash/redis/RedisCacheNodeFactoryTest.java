package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.CacheNodeFactory;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import io.github.chash.config.RedisConfig;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class RedisCacheNodeFactoryTest {

  @Test
  void serviceLoader_findsTheRedisFactory() {
    List<NodeType> types = new ArrayList<>();
    ServiceLoader.load(CacheNodeFactory.class).forEach(f -> types.add(f.type()));
    assertThat(types).contains(NodeType.REDIS);
  }

  @Test
  void create_localNode_isRefused() {
    assertThatThrownBy(
            () ->
                new RedisCacheNodeFactory()
                    .create(NodeConfig.local("a"), config(RedisConfig.defaults())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node \"a\" is of type local, not redis");
  }

  @Test
  void unknownCodec_isRefusedWhenTheSettingsAreMade() {
    assertThatThrownBy(() -> new RedisConfig("chash:", "kryo", List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("redis.codec must be one of jdk, jackson; was \"kryo\"");
  }

  @Test
  void create_memcachedPeerCodecOnRedis_refusedWhereTheCacheSaysSo() {
    ChashConfig parsed =
        ChashConfigs.parse(
            "nodes:\n  - { id: r1, type: redis, uri: \"redis://127.0.0.1:1\" }\n"
                + "caches:\n  users: { ttl: 1h, keys: verbatim, codec: spymemcached }\n",
            "chash.yaml");
    assertThatThrownBy(() -> new RedisCacheNodeFactory().create(parsed.nodes().get(0), parsed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "chash.yaml:4:44: caches.users.codec is spymemcached, a memcached client's item"
                + " format, which redis nodes do not store; use string, bytes, jdk or jackson");
  }

  @Test
  void create_unsetVariableOfAParsedFile_namesItsLineAndColumn() {
    // issue 11: ${env:MISSING} failed at startup without saying where it was written
    ChashConfig parsed =
        ChashConfigs.parse(
            "nodes:\n  - id: r1\n    type: redis\n    uri: \"redis://:${env:MISSING}@127.0.0.1:1\"\n",
            "chash.yaml");
    RedisCacheNodeFactory factory = new RedisCacheNodeFactory(Map.<String, String>of()::get);
    assertThatThrownBy(() -> factory.create(parsed.nodes().get(0), parsed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "chash.yaml:4:10: node \"r1\": environment variable MISSING is not set");
  }

  @Test
  void create_unsetPasswordVariable_namesNodeAndVariable() {
    RedisCacheNodeFactory factory = new RedisCacheNodeFactory(Map.<String, String>of()::get);
    NodeConfig node = NodeConfig.redis("cache-1", "redis://:${env:CHASH_NO_SUCH_VAR}@127.0.0.1:1");
    assertThatThrownBy(() -> factory.create(node, config(RedisConfig.defaults())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "<test>: node \"cache-1\": environment variable CHASH_NO_SUCH_VAR is not set");
  }

  /** A user with local shards only: no Lettuce, no Jackson on the class path, and all works. */
  @Test
  void localShardsOnly_workWithoutLettuceOnTheClassPath() throws Exception {
    try (URLClassLoader withoutLettuce =
        classPathWithout("lettuce-core", "netty", "reactor", "jackson")) {
      assertThatThrownBy(() -> withoutLettuce.loadClass("io.lettuce.core.RedisClient"))
          .isInstanceOf(ClassNotFoundException.class);
      String yaml = "nodes:\n  - id: a\n  - id: b\ncaches:\n  users: { ttl: 1m }\n";

      Object value = inLoader(withoutLettuce, () -> putAndGet(withoutLettuce, yaml));

      assertThat(value).isEqualTo("v");
    }
  }

  @Test
  void redisNode_withoutLettuce_failsWithAClearMessage() throws Exception {
    try (URLClassLoader withoutLettuce =
        classPathWithout("lettuce-core", "netty", "reactor", "jackson")) {
      String yaml = "nodes:\n  - id: cache-1\n    type: redis\n    uri: redis://127.0.0.1:1\n";

      assertThatThrownBy(() -> inLoader(withoutLettuce, () -> putAndGet(withoutLettuce, yaml)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "node \"cache-1\" is of type redis, but io.lettuce:lettuce-core is not on the class"
                  + " path; add it as a dependency");
    }
  }

  private static ChashConfig config(RedisConfig redis) {
    return RedisCacheNodeIT.config(redis, Duration.ofMillis(100));
  }

  /**
   * ShardedCaches.create(ChashConfigs.parse(yaml)).cache("users"): put "k" -> "v", read it back.
   */
  private static Object putAndGet(ClassLoader loader, String yaml) throws Exception {
    Class<?> configs = loader.loadClass("io.github.chash.config.ChashConfigs");
    Class<?> configClass = loader.loadClass("io.github.chash.config.ChashConfig");
    Class<?> caches = loader.loadClass("io.github.chash.cache.ShardedCaches");
    Class<?> cacheClass = loader.loadClass("io.github.chash.internal.cache.InterceptedCache");
    Class<?> valueType = loader.loadClass("io.github.chash.cache.ValueType");
    Class<?> managerClass = loader.loadClass("io.github.chash.cache.ShardedCacheManager");
    Object config =
        configs.getMethod("parse", String.class, String.class).invoke(null, yaml, "chash.yaml");
    try (AutoCloseable manager =
        (AutoCloseable) caches.getMethod("create", configClass).invoke(null, config)) {
      Object users = managerClass.getMethod("cache", String.class).invoke(manager, "users");
      Method put = cacheClass.getMethod("put", String.class, Object.class);
      Method get = cacheClass.getMethod("getIfPresent", String.class, valueType);
      put.invoke(users, "users:k", "v");
      return get.invoke(users, "users:k", valueType.getField("OBJECT").get(null));
    }
  }

  private interface Action {
    Object run() throws Exception;
  }

  private static Object inLoader(ClassLoader loader, Action action) throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      return action.run();
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /** The runtime's class path minus the jars whose names contain any of the given parts. */
  private static URLClassLoader classPathWithout(String... parts) throws MalformedURLException {
    List<URL> urls = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String name = new File(entry).getName();
      boolean excluded = false;
      for (String part : parts) {
        excluded |= name.contains(part);
      }
      // only main classes and libraries: the test classes must not leak in
      if (!excluded && !entry.endsWith("test-classes")) {
        urls.add(new File(entry).toURI().toURL());
      }
    }
    return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
  }
}
