package io.github.chash.redis;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeFactory;
import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import io.github.chash.config.ReadFrom;
import io.github.chash.config.RedisConfig;
import io.github.chash.internal.codec.ValueCodec;
import io.github.chash.internal.node.RemoteNodeFactories;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Creates the {@code type: redis} nodes of a {@code chash.yaml}: a {@link CacheNode} per Redis (or
 * Valkey) server, on Lettuce.
 *
 * <p>Registered through {@code META-INF/services/io.github.chash.cache.CacheNodeFactory}, so {@code
 * type: redis} nodes work as soon as {@code io.lettuce:lettuce-core} is on the class path. This
 * class itself never touches Lettuce until a Redis node is created, so applications with local
 * shards only do not need (or load) it. Pass an instance to the cache builder to read {@code
 * ${env:NAME}} placeholders from somewhere other than the process environment.
 *
 * <p>What a node does:
 *
 * <ul>
 *   <li>URIs {@code redis://} and {@code rediss://} (TLS; the server's certificate and host name
 *       are verified against the JVM's trust store, {@code javax.net.ssl.trustStore}), {@code
 *       [user:]password@} only as {@code ${env:NAME}} placeholders, resolved once here and never
 *       logged: {@code toString()} prints {@code redis://***@host:port/db}; a database number as
 *       the path. (Lettuce's own wire dump, logger {@code io.lettuce.core.protocol} at TRACE,
 *       prints every byte sent, AUTH included; a node with credentials warns when it is on.)
 *   <li>URIs {@code redis-sentinel://[[user:]password@]s1[:port],s2[:port]/db#master}: a shard
 *       whose primary Redis Sentinel picks (sentinels asked without credentials, default port
 *       26379). Each (re)connect asks them for the current primary, so a promotion inside the shard
 *       is a reconnect, not a move of its keys. Each write (put, evict, clear) waits for one
 *       replica ({@code WAIT 1}, half the timeout) and counts only then: a write the old primary
 *       acknowledged but no replica had can be lost at a failover, so without a replica's
 *       acknowledgement its outcome is unknown and the key is not read there until a write lands.
 *       Writes use a second connection, so reads never wait behind {@code WAIT}. With {@code
 *       readFrom: replicaPreferred}, reads go to a replica (Lettuce's Master/Replica connection,
 *       {@code ReadFrom.REPLICA_PREFERRED}; the primary while none is up), except reads of a key
 *       this JVM wrote until the replicas' replication offsets (read from the primary every {@code
 *       replicaLag}, default 1 s) show every replica has the write, which go to the primary; a key
 *       another JVM wrote may be read stale by up to the replication lag.
 *   <li>Every command times out after {@code failover.timeout} (default 100 ms); while the server
 *       is unreachable commands fail at once, and nothing is buffered or replayed after a
 *       reconnect.
 *   <li>Keys are {@code redis.keyPrefix} (default {@code chash:}) plus the routing key, as UTF-8
 *       (an unpaired surrogate keeps bytes of its own, so distinct keys never collide); a write
 *       sets the cache's TTL ({@code SET key value PX ttl}), or none for a cache without one;
 *       {@code clear()} deletes only keys under the prefix ({@code SCAN MATCH} + {@code UNLINK}).
 *   <li>Values larger than {@code redis.maxValueSize} (default 1 MB) are refused before they are
 *       sent and after they are received: the write is replaced by a delete, the read is a miss,
 *       and neither counts against the server's health.
 *   <li>Values go through {@code redis.codec}: {@code jdk} (default), serialization behind an
 *       {@code ObjectInputFilter} allow-list of {@code java.lang.*}, {@code java.util.*}, {@code
 *       java.time.*}, {@code java.math.*} plus {@code redis.allow}; or {@code jackson} (needs
 *       {@code jackson-databind}), JSON decoded to the caller's exact generic type (a caller that
 *       passes {@code ValueType.OBJECT} gets maps and lists). Decoding is bounded by the value's
 *       own size (arrays, references) and a depth of 64, so no stored bytes can exhaust memory or
 *       the stack. A stored value of a refused class, unreadable, beyond those bounds or of the
 *       wrong type is logged (class name only, once per reason), counted as refused and read as a
 *       miss.
 * </ul>
 *
 * <p>Thread-safe; the nodes it creates are thread-safe too.
 */
public final class RedisCacheNodeFactory implements CacheNodeFactory {
  /** The command timeout when {@code failover.timeout} is not set. */
  public static final Duration DEFAULT_TIMEOUT = RemoteNodeFactories.DEFAULT_TIMEOUT;

  private static final String LETTUCE_CLASS = "io.lettuce.core.RedisClient";

  private final Function<String, String> env;

  /**
   * A factory that resolves {@code ${env:NAME}} from the process environment (the service
   * loader's).
   */
  public RedisCacheNodeFactory() {
    this(System::getenv);
  }

  /**
   * A factory that resolves {@code ${env:NAME}} through the given function (null result: not set).
   *
   * @param env gives an environment variable's value, or null when it is not set
   * @throws NullPointerException if {@code env} is null
   */
  public RedisCacheNodeFactory(Function<String, String> env) {
    this.env = Objects.requireNonNull(env, "env");
  }

  /** {@link NodeType#REDIS}. */
  @Override
  public NodeType type() {
    return NodeType.REDIS;
  }

  /**
   * Creates a node for a {@code type: redis} entry; it connects in the background, so an
   * unreachable server does not fail startup (its calls fail and the failure policy ejects it).
   *
   * @throws IllegalArgumentException naming the node if it is not a Redis node, its uri is unusable
   *     or refers to an unset environment variable, {@code redis.allow} has a malformed pattern,
   *     {@code redis.codec} is unknown, or the library it needs is missing
   */
  @Override
  public CacheNode create(NodeConfig node, ChashConfig config) {
    RemoteNodeFactories.requireNode(
        node, config, NodeType.REDIS, getClass(), LETTUCE_CLASS, "io.lettuce:lettuce-core");
    RedisConfig redis = config.redis() != null ? config.redis() : RedisConfig.defaults();
    RedisEndpoint endpoint;
    try {
      endpoint = RedisEndpoint.parse(node.id(), node.uri(), env);
    } catch (IllegalArgumentException e) {
      throw RemoteNodeFactories.uriProblem(node, config, e.getMessage(), e);
    }
    String prefix = redis.keyPrefix() != null ? redis.keyPrefix() : "chash:";
    return new RedisCacheNode(
        node.id(),
        endpoint,
        prefix,
        codec(redis.codec(), "redis.codec", redis),
        cacheCodecs(config, redis),
        RemoteNodeFactories.timeout(config),
        redis.maxValueSize(),
        node.readFrom() == ReadFrom.REPLICA_PREFERRED ? node.replicaLag() : null);
  }

  @Override
  public String toString() {
    return "RedisCacheNodeFactory";
  }

  /** The codecs of the caches that name their own ({@code caches.<name>.codec}), by cache. */
  private Map<String, ValueCodec> cacheCodecs(ChashConfig config, RedisConfig redis) {
    Map<String, ValueCodec> codecs = new HashMap<>();
    for (CacheConfig cache : config.caches().values()) {
      if (cache.codec() != null && CacheConfig.MEMCACHED_PEER_CODECS.contains(cache.codec())) {
        throw new IllegalArgumentException(
            config.where("caches." + cache.name() + ".codec")
                + ": caches."
                + cache.name()
                + ".codec is "
                + cache.codec()
                + ", a memcached client's item format, which redis nodes do not store; use"
                + " string, bytes, jdk or jackson");
      }
      if (cache.codec() != null) {
        codecs.put(cache.name(), codec(cache.codec(), "caches." + cache.name() + ".codec", redis));
      }
    }
    return codecs;
  }

  /** RedisConfig and CacheConfig made sure the codec is one of CacheConfig.CODECS. */
  private static ValueCodec codec(String name, String setting, RedisConfig redis) {
    return RemoteNodeFactories.codec(name, setting, "redis", redis.allowedClasses());
  }
}
