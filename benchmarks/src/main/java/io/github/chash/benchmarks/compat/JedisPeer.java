package io.github.chash.benchmarks.compat;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.PeerVectors;
import io.github.chash.ring.PeerVectors.Case;
import io.github.chash.ring.PeerVectors.VectorNode;
import io.github.chash.ring.RingSettings;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Jedis release loaded in its own class loader from {@code benchmarks/target/peers/} (Maven
 * cannot put two versions of one artifact on a class path, so it is driven by reflection). 3.x:
 * {@code ShardedJedis(shards, keyTagPattern).getShardInfo(key)} over {@code JedisShardInfo}s
 * (unnamed, named, weighted), nothing connected. 4.x/5.x: {@code JedisSharding}'s own path: a
 * {@code ShardedCommandArguments(Hashing.MURMUR_HASH, tagPattern, GET).key(key).getKeyHash()}
 * handed to {@code ShardedConnectionProvider(hostAndPorts).getNode(hash)}; its shards are unnamed
 * and of weight 1.
 */
final class JedisPeer implements Peer {
  private final String version;
  private final URLClassLoader loader;
  private final boolean sharded3;

  JedisPeer(String version, Path peers) throws Exception {
    this.version = version;
    this.sharded3 = version.startsWith("3.");
    List<URL> urls = new ArrayList<>();
    for (Path dir : List.of(peers.resolve("jedis-" + version), peers.resolve("lib"))) {
      try (Stream<Path> jars = Files.list(dir)) {
        for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
          urls.add(jar.toUri().toURL());
        }
      }
    }
    this.loader =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  @Override
  public String file() {
    return "jedis-" + version + ".vectors";
  }

  @Override
  public List<String> header() {
    return sharded3
        ? List.of(
            "Jedis "
                + version
                + " (redis.clients:jedis) ShardedJedis over JedisShardInfo,"
                + " Hashing.MURMUR_HASH;",
            "keyTags cases pass Sharded.DEFAULT_KEY_TAG_PATTERN. Node ids are host:port, names"
                + " JedisShardInfo names.")
        : List.of(
            "Jedis "
                + version
                + " (redis.clients:jedis) JedisSharding: ShardedCommandArguments"
                + " (Hashing.MURMUR_HASH) and ShardedConnectionProvider.getNode;",
            "keyTags cases pass JedisSharding.DEFAULT_KEY_TAG_PATTERN. Node ids are host:port.");
  }

  @Override
  public List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    String plain = "algorithm=jedis";
    for (int n : Cases.COUNTS) {
      cases.add(Case.of(Cases.label("", false, true, n), plain, false, nodes(n, false, true)));
    }
    if (sharded3) {
      for (int n : Cases.COUNTS) {
        cases.add(Case.of(Cases.label("", false, false, n), plain, false, nodes(n, false, false)));
      }
      for (int n : new int[] {8, 25}) {
        cases.add(Case.of(Cases.label("", true, true, n), plain, false, nodes(n, true, true)));
        cases.add(Case.of(Cases.label("", true, false, n), plain, false, nodes(n, true, false)));
      }
      cases.add(Case.of("mixed-unequal-8", plain, false, mixed(8)));
    }
    cases.add(
        Case.of(
            "keytags-unnamed-equal-8",
            "algorithm=jedis keyTags=true",
            true,
            nodes(8, false, true)));
    return cases;
  }

  private static List<VectorNode> nodes(int n, boolean named, boolean equal) {
    List<VectorNode> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int weight = equal ? 1 : Cases.unequalWeight(i, n);
      // ids not in list order, so that a ring sorting by id would show
      String id = "10.0." + (i / 200) + "." + (200 - i % 200) + ":" + (6379 + i % 2);
      nodes.add(new VectorNode(id, weight, named ? "shard-" + (char) ('a' + i % 26) + i : null));
    }
    return nodes;
  }

  private static List<VectorNode> mixed(int n) {
    List<VectorNode> all = nodes(n, true, false);
    List<VectorNode> mixed = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      VectorNode v = all.get(i);
      mixed.add(i % 2 == 0 ? v : new VectorNode(v.id(), v.weight(), null));
    }
    return mixed;
  }

  private static String host(String id) {
    return id.substring(0, id.lastIndexOf(':'));
  }

  private static int port(String id) {
    return Integer.parseInt(id.substring(id.lastIndexOf(':') + 1));
  }

  @Override
  public int[] place(Case c) throws Exception {
    return sharded3 ? placeSharded(c) : placeSharding(c);
  }

  private int[] placeSharded(Case c) throws Exception {
    Class<?> info = loader.loadClass("redis.clients.jedis.JedisShardInfo");
    Constructor<?> unnamed =
        info.getConstructor(String.class, int.class, int.class, int.class, int.class);
    Constructor<?> named =
        info.getConstructor(String.class, String.class, int.class, int.class, int.class);
    List<Object> shards = new ArrayList<>();
    Map<Object, Integer> positions = new IdentityHashMap<>();
    for (int i = 0; i < c.nodes().size(); i++) {
      VectorNode n = c.nodes().get(i);
      Object shard =
          n.name() == null
              ? unnamed.newInstance(host(n.id()), port(n.id()), 2000, 2000, n.weight())
              : named.newInstance(host(n.id()), n.name(), port(n.id()), 2000, n.weight());
      shards.add(shard);
      positions.put(shard, i);
    }
    Class<?> sharded = loader.loadClass("redis.clients.jedis.util.Sharded");
    Pattern tags =
        c.settings().contains("keyTags=true")
            ? (Pattern) sharded.getField("DEFAULT_KEY_TAG_PATTERN").get(null)
            : null;
    Object jedis =
        loader
            .loadClass("redis.clients.jedis.ShardedJedis")
            .getConstructor(List.class, Pattern.class)
            .newInstance(shards, tags);
    Method getShardInfo = sharded.getMethod("getShardInfo", String.class);
    int[] owners = new int[c.keys()];
    for (int i = 0; i < owners.length; i++) {
      owners[i] = positions.get(getShardInfo.invoke(jedis, PeerVectors.key(i, c.tagged())));
    }
    loader.loadClass("redis.clients.jedis.ShardedJedis").getMethod("close").invoke(jedis);
    return owners;
  }

  private int[] placeSharding(Case c) throws Exception {
    Class<?> hostAndPort = loader.loadClass("redis.clients.jedis.HostAndPort");
    Constructor<?> hp = hostAndPort.getConstructor(String.class, int.class);
    List<Object> shards = new ArrayList<>();
    Map<Object, Integer> positions = new IdentityHashMap<>();
    for (int i = 0; i < c.nodes().size(); i++) {
      VectorNode n = c.nodes().get(i);
      if (n.name() != null || n.weight() != 1) {
        throw new IllegalArgumentException("JedisSharding has no names or weights: " + n);
      }
      Object shard = hp.newInstance(host(n.id()), port(n.id()));
      shards.add(shard);
      positions.put(shard, i);
    }
    Class<?> providerClass =
        loader.loadClass("redis.clients.jedis.providers.ShardedConnectionProvider");
    Object provider = providerClass.getConstructor(List.class).newInstance(shards);
    Method getNode = providerClass.getMethod("getNode", Long.class);
    Class<?> hashing = loader.loadClass("redis.clients.jedis.util.Hashing");
    Object murmur = hashing.getField("MURMUR_HASH").get(null);
    Class<?> protocolCommand = loader.loadClass("redis.clients.jedis.commands.ProtocolCommand");
    Object get = loader.loadClass("redis.clients.jedis.Protocol$Command").getField("GET").get(null);
    Pattern tags =
        c.settings().contains("keyTags=true")
            ? (Pattern)
                loader
                    .loadClass("redis.clients.jedis.JedisSharding")
                    .getField("DEFAULT_KEY_TAG_PATTERN")
                    .get(null)
            : null;
    Class<?> argsClass = loader.loadClass("redis.clients.jedis.ShardedCommandArguments");
    Constructor<?> args = argsClass.getConstructor(hashing, Pattern.class, protocolCommand);
    Method key = argsClass.getMethod("key", Object.class);
    Method keyHash = argsClass.getMethod("getKeyHash");
    int[] owners = new int[c.keys()];
    for (int i = 0; i < owners.length; i++) {
      Object a = args.newInstance(murmur, tags, get);
      key.invoke(a, PeerVectors.key(i, c.tagged()));
      Object node = getNode.invoke(provider, (Long) keyHash.invoke(a));
      owners[i] = positions.get(node);
    }
    providerClass.getMethod("close").invoke(provider);
    return owners;
  }

  @Override
  public Map<String, Before> before(Case c) {
    List<Node> nodes = c.nodes().stream().map(n -> Node.of(n.id(), n.weight())).toList();
    Map<String, Before> before = new LinkedHashMap<>();
    before.put("ring xxh3", new Before(RingSettings.of(Algorithm.RING), nodes));
    before.put(
        "ring murmur3",
        new Before(
            RingSettings.builder().algorithm(Algorithm.RING).hash("murmur3").build(), nodes));
    before.put("ketama", new Before(RingSettings.of(Algorithm.KETAMA), nodes));
    return before;
  }

  @Override
  public void close() throws IOException {
    loader.close();
  }
}
