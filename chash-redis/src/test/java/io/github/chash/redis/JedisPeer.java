package io.github.chash.redis;

import io.github.chash.cache.LegacyData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A real Jedis client (3.x {@code ShardedJedis} or 5.x {@code JedisSharding}), each release loaded
 * in its own class loader from the jars the build copies to {@code target/peers} (two versions of
 * one artifact cannot share a class path), driven through its public methods.
 */
final class JedisPeer implements AutoCloseable {
  /** A {@code JedisShardInfo}: a null name is an unnamed shard. */
  record Shard(String host, int port, String name, int weight) {}

  private final URLClassLoader loader;
  private final Object client;
  private final Method setexText;
  private final Method getText;
  private final Method setexBytes;
  private final Method getBytes;
  private final Method del;

  private JedisPeer(URLClassLoader loader, Object client) throws ReflectiveOperationException {
    this.loader = loader;
    this.client = client;
    Class<?> c = client.getClass();
    this.setexText = c.getMethod("setex", String.class, long.class, String.class);
    this.getText = c.getMethod("get", String.class);
    this.setexBytes = c.getMethod("setex", byte[].class, long.class, byte[].class);
    this.getBytes = c.getMethod("get", byte[].class);
    this.del = c.getMethod("del", String.class);
  }

  /** Jedis 3.x {@code new ShardedJedis(List<JedisShardInfo>)}, the shards in this order. */
  static JedisPeer shardedJedis3(String version, List<Shard> shards) throws Exception {
    URLClassLoader loader = loader(version);
    Class<?> info = loader.loadClass("redis.clients.jedis.JedisShardInfo");
    Constructor<?> named =
        info.getConstructor(String.class, String.class, int.class, int.class, int.class);
    List<Object> infos = new ArrayList<>();
    for (Shard s : shards) {
      infos.add(named.newInstance(s.host(), s.name(), s.port(), 2000, s.weight()));
    }
    Object client =
        loader
            .loadClass("redis.clients.jedis.ShardedJedis")
            .getConstructor(List.class)
            .newInstance(infos);
    return new JedisPeer(loader, client);
  }

  /** Jedis 4.x/5.x {@code new JedisSharding(List<HostAndPort>)}, the servers in this order. */
  static JedisPeer jedisSharding(String version, List<Shard> shards) throws Exception {
    URLClassLoader loader = loader(version);
    Constructor<?> hostAndPort =
        loader.loadClass("redis.clients.jedis.HostAndPort").getConstructor(String.class, int.class);
    List<Object> hosts = new ArrayList<>();
    for (Shard s : shards) {
      hosts.add(hostAndPort.newInstance(s.host(), s.port()));
    }
    Object client =
        loader
            .loadClass("redis.clients.jedis.JedisSharding")
            .getConstructor(List.class)
            .newInstance(hosts);
    return new JedisPeer(loader, client);
  }

  /** Jedis {@code new Jedis(host, port)}: one server, or a proxy in front of several. */
  static JedisPeer single(String version, String host, int port) throws Exception {
    URLClassLoader loader = loader(version);
    Object client =
        loader
            .loadClass("redis.clients.jedis.Jedis")
            .getConstructor(String.class, int.class)
            .newInstance(host, port);
    return new JedisPeer(loader, client);
  }

  /** This client as the migration tests' old client: objects JDK-serialized, as teams did. */
  LegacyData.OldClient asOldClient() {
    return new LegacyData.OldClient() {
      @Override
      public void setText(String key, int ttlSeconds, String value) {
        setex(key, ttlSeconds, value);
      }

      @Override
      public void setObject(String key, int ttlSeconds, Object value) {
        setex(bytes(key), ttlSeconds, LegacyData.serialize(value));
      }

      @Override
      public Map<String, Object> readAll(List<String> textKeys, List<String> objectKeys) {
        Map<String, Object> found = new HashMap<>();
        for (String key : textKeys) {
          String value = get(key);
          if (value != null) {
            found.put(key, value);
          }
        }
        for (String key : objectKeys) {
          byte[] value = get(bytes(key));
          if (value != null) {
            found.put(key, LegacyData.deserialize(value));
          }
        }
        return found;
      }
    };
  }

  private static byte[] bytes(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  void setex(String key, long seconds, String value) {
    call(setexText, key, seconds, value);
  }

  void setex(byte[] key, long seconds, byte[] value) {
    call(setexBytes, key, seconds, value);
  }

  String get(String key) {
    return (String) call(getText, key);
  }

  byte[] get(byte[] key) {
    return (byte[]) call(getBytes, (Object) key);
  }

  void del(String key) {
    call(del, key);
  }

  private Object call(Method m, Object... args) {
    try {
      return m.invoke(client, args);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("jedis " + m.getName() + " failed", e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws IOException, ReflectiveOperationException {
    client.getClass().getMethod("close").invoke(client);
    loader.close();
  }

  private static URLClassLoader loader(String version) {
    Path peers = Path.of(System.getProperty("chash.peers", "target/peers"));
    List<URL> urls = new ArrayList<>();
    try (Stream<Path> jedis = Files.list(peers.resolve("jedis-" + version));
        Stream<Path> lib = Files.list(peers.resolve("lib"))) {
      for (Path jar : Stream.concat(jedis, lib).toList()) {
        urls.add(jar.toUri().toURL());
      }
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "the peer jars are copied to " + peers + " in pre-integration-test; run through verify",
          e);
    }
    return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
  }
}
