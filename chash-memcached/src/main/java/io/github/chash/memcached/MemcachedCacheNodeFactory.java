package io.github.chash.memcached;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeFactory;
import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.MemcachedConfig;
import io.github.chash.config.MemcachedUris;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import io.github.chash.internal.codec.JdkSerializationCodec;
import io.github.chash.internal.node.RemoteNodeFactories;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Creates the {@code type: memcached} nodes of a {@code chash.yaml}: a {@link CacheNode} per
 * memcached server, on XMemcached ({@code com.googlecode.xmemcached:xmemcached}).
 *
 * <p>Registered through {@code META-INF/services/io.github.chash.cache.CacheNodeFactory}, so {@code
 * type: memcached} nodes work as soon as XMemcached is on the class path. This class itself never
 * touches XMemcached until a memcached node is created, so applications without memcached nodes do
 * not need (or load) it.
 *
 * <p>What a node does, next to a Redis node:
 *
 * <ul>
 *   <li>URIs {@code memcached://host[:port]} (port 11211 by default; host and port may be {@code
 *       ${env:NAME}} placeholders, resolved once here); no TLS, no SASL.
 *   <li>The same failure rules: every command times out after {@code failover.timeout} (default 100
 *       ms), a dead server fails calls at once, nothing is queued or replayed.
 *   <li>Keys are {@code memcached.keyPrefix} (default {@code chash:}) plus the routing key when it
 *       is a valid memcached key (printable ASCII without spaces, at most 250 bytes in all), else a
 *       SHA-256 of it; the entry names its full key, so no key is served another's value.
 *   <li>TTLs in whole seconds (ceiling), more than 30 days as an absolute Unix time, no expiry for
 *       a cache without a TTL; the deadline in milliseconds is kept with the value too, in the
 *       server's clock (read from its {@code stats}), so JVMs whose clocks disagree agree on it.
 *   <li>No {@code SCAN}: {@code clear()} and a cache's clear replace a generation counter, which
 *       makes the old entries misses at once; they leave by TTL or LRU.
 *   <li>Values larger than {@code memcached.maxValueSize} (default 1 MB, memcached's default item
 *       limit) are refused before they are sent and after they are received; a server refusing an
 *       item as too large is a refusal too; neither counts against the server's health.
 *   <li>Values go through {@code memcached.codec} and {@code memcached.allow}, the codecs of Redis
 *       nodes.
 * </ul>
 *
 * <p>Thread-safe; the nodes it creates are thread-safe too.
 */
public final class MemcachedCacheNodeFactory implements CacheNodeFactory {
  /** The command timeout when {@code failover.timeout} is not set. */
  public static final Duration DEFAULT_TIMEOUT = RemoteNodeFactories.DEFAULT_TIMEOUT;

  private static final String CLIENT_CLASS = "net.rubyeye.xmemcached.MemcachedClient";

  private final Function<String, String> env;

  /** The wall clock of the nodes created: the system's, or a test's. */
  private final Clock wallClock;

  /** A factory that resolves {@code ${env:NAME}} from the process environment. */
  public MemcachedCacheNodeFactory() {
    this(System::getenv);
  }

  /**
   * A factory that resolves {@code ${env:NAME}} through the given function (null result: not set).
   *
   * @param env looks up an environment variable
   * @throws NullPointerException if {@code env} is null
   */
  public MemcachedCacheNodeFactory(Function<String, String> env) {
    this(env, Clock.systemUTC());
  }

  /** A factory whose nodes read the given wall clock: for tests of JVMs whose clocks disagree. */
  MemcachedCacheNodeFactory(Function<String, String> env, Clock wallClock) {
    this.env = Objects.requireNonNull(env, "env");
    this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
  }

  /** {@link NodeType#MEMCACHED}. */
  @Override
  public NodeType type() {
    return NodeType.MEMCACHED;
  }

  /**
   * Creates a node for a {@code type: memcached} entry; it connects in the background, so an
   * unreachable server does not fail startup (its calls fail and the failure policy ejects it).
   *
   * @throws IllegalArgumentException naming the node if it is not a memcached node, its uri is
   *     unusable or refers to an unset environment variable, or the library it needs is missing
   */
  @Override
  public CacheNode create(NodeConfig node, ChashConfig config) {
    RemoteNodeFactories.requireNode(
        node,
        config,
        NodeType.MEMCACHED,
        getClass(),
        CLIENT_CLASS,
        "com.googlecode.xmemcached:xmemcached");
    MemcachedConfig memcached =
        config.memcached() != null ? config.memcached() : MemcachedConfig.defaults();
    Map<String, PeerTranscoder> peerFormats = peerFormats(node, config, memcached);
    InetSocketAddress address;
    try {
      address = MemcachedUris.address(node.uri(), env);
    } catch (IllegalArgumentException e) {
      throw RemoteNodeFactories.uriProblem(
          node, config, "node \"" + node.id() + "\": " + e.getMessage(), e);
    }
    return new MemcachedCacheNode(
        node.id(),
        address,
        memcached.keyPrefix(),
        RemoteNodeFactories.codec(
            memcached.codec(), "memcached.codec", "memcached", memcached.allowedClasses()),
        peerFormats,
        RemoteNodeFactories.timeout(config),
        memcached.maxValueSize(),
        wallClock);
  }

  /**
   * The peer clients' item format of each verbatim cache, by name. On memcached a cache's own codec
   * is one of the peer clients' ({@code spymemcached}, {@code xmemcached}) and only for a verbatim
   * cache (a prefixed cache keeps the envelope its clears rely on); a verbatim cache needs one.
   * Anything else is refused at startup, where the cache was configured.
   */
  private static Map<String, PeerTranscoder> peerFormats(
      NodeConfig node, ChashConfig config, MemcachedConfig memcached) {
    Map<String, PeerTranscoder> formats = new HashMap<>();
    for (CacheConfig cache : config.caches().values()) {
      boolean peer =
          cache.codec() != null && CacheConfig.MEMCACHED_PEER_CODECS.contains(cache.codec());
      if (cache.verbatim() && peer) {
        formats.put(
            cache.name(),
            new PeerTranscoder(
                new JdkSerializationCodec(memcached.allowedClasses(), "memcached"),
                memcached.maxValueSize()));
      } else if (cache.verbatim() || cache.codec() != null) {
        String setting = cache.codec() != null ? "codec" : "keys";
        throw new IllegalArgumentException(
            config.where("caches." + cache.name() + "." + setting)
                + ": caches."
                + cache.name()
                + (cache.verbatim()
                    ? " is verbatim on memcached nodes (node \""
                        + node.id()
                        + "\"), which needs codec spymemcached or xmemcached (the item format"
                        + " the old clients read); was "
                        + (cache.codec() == null ? "none" : cache.codec())
                    : ".codec is "
                        + cache.codec()
                        + ", but on memcached nodes (node \""
                        + node.id()
                        + "\") a cache has a codec of its own only with keys: verbatim"));
      }
    }
    return formats;
  }

  @Override
  public String toString() {
    return "MemcachedCacheNodeFactory";
  }
}
