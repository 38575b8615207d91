package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import io.github.chash.ring.Node;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One entry of {@code nodes:}; its constructor applies the rules {@code chash.yaml} gets.
 *
 * @param id unique node id; also the name its virtual points derive from ({@link Node#idProblem})
 * @param type local shard, Redis or memcached server, or a type a jar provides ({@link NodeType})
 * @param weight positive weight
 * @param maximumSize entry bound of a local shard, positive (0 when not a local node)
 * @param uri Redis or memcached URI as written, {@code ${env:NAME}} placeholders unresolved (null
 *     for local); for a type a jar provides, whatever its factory reads (a password only as {@code
 *     ${env:NAME}}, as for every type), or null
 * @param name what {@code ketama} and {@code jedis} derive the node's points from instead of the id
 *     (a twemproxy server's or a Jedis shard's name); null when not given
 * @param readFrom where a Redis node's reads go; {@link ReadFrom#REPLICA_PREFERRED} only for a
 *     Sentinel-managed shard (null: {@link ReadFrom#PRIMARY})
 * @param replicaLag with {@link ReadFrom#REPLICA_PREFERRED}: how often the replicas' replication
 *     offsets are read, which tell when a key this JVM wrote may be read from a replica again
 *     (null: {@link #DEFAULT_REPLICA_LAG})
 */
public record NodeConfig(
    String id,
    NodeType type,
    int weight,
    long maximumSize,
    String uri,
    String name,
    ReadFrom readFrom,
    Duration replicaLag) {

  /** Default entry bound of a local shard. */
  public static final long DEFAULT_MAXIMUM_SIZE = 10_000;

  /** How often the replication offsets are read when {@code replicaLag} is unset. */
  public static final Duration DEFAULT_REPLICA_LAG = Duration.ofSeconds(1);

  /**
   * Checks the values.
   *
   * @param id unique node id; also the name its virtual points derive from ({@link Node#idProblem})
   * @param type local shard or Redis server
   * @param weight positive weight
   * @param maximumSize entry bound of a local shard, positive (0 when not a local node)
   * @param uri Redis URI as written, {@code ${env:NAME}} placeholders unresolved (null for local)
   * @param name what {@code ketama} and {@code jedis} derive the node's points from instead of the
   *     id (a twemproxy server's or a Jedis shard's name); null when not given
   * @param readFrom where a Redis node's reads go; {@link ReadFrom#REPLICA_PREFERRED} only for a
   *     Sentinel-managed shard (null: {@link ReadFrom#PRIMARY})
   * @param replicaLag how often the replicas' replication offsets are read (null: {@link
   *     #DEFAULT_REPLICA_LAG})
   * @throws IllegalArgumentException if the id, weight, maximumSize, uri, name, readFrom or
   *     replicaLag breaks its rule
   * @throws NullPointerException if {@code type} is null
   */
  public NodeConfig {
    Rules.require("node id", Node.idProblem(id));
    String node = Quotes.quote(id);
    Objects.requireNonNull(type, "type of node " + node);
    Rules.require("weight of node " + node, Node.weightProblem(weight));
    Rules.require("maximumSize of node " + node, maximumSizeProblem(type, maximumSize));
    for (String problem : uriProblems(type, uri)) {
      Rules.require("uri of node " + node, problem);
    }
    if (name != null) {
      Rules.require("name of node " + node, Node.idProblem(name)); // a name is an id's stand-in
    }
    readFrom = readFrom == null ? ReadFrom.PRIMARY : readFrom;
    replicaLag = replicaLag == null ? DEFAULT_REPLICA_LAG : replicaLag;
    Rules.require("readFrom of node " + node, readFromProblem(type, uri, readFrom));
    Rules.require("replicaLag of node " + node, Rules.positive(replicaLag));
  }

  /**
   * A node without read settings: reads from the primary.
   *
   * @param id unique node id; also the name its virtual points derive from ({@link Node#idProblem})
   * @param type local shard, Redis or memcached server
   * @param weight positive weight
   * @param maximumSize entry bound of a local shard, positive (0 when not a local node)
   * @param uri Redis or memcached URI as written (null for local)
   * @param name what {@code ketama} and {@code jedis} derive the node's points from; null when not
   *     given
   */
  public NodeConfig(
      String id, NodeType type, int weight, long maximumSize, String uri, String name) {
    this(id, type, weight, maximumSize, uri, name, null, null);
  }

  /**
   * A node without a name.
   *
   * @param id unique node id; also the name its virtual points derive from ({@link Node#idProblem})
   * @param type local shard or Redis server
   * @param weight positive weight
   * @param maximumSize entry bound of a local shard, positive (0 when not a local node)
   * @param uri Redis URI as written, {@code ${env:NAME}} placeholders unresolved (null for local)
   */
  public NodeConfig(String id, NodeType type, int weight, long maximumSize, String uri) {
    this(id, type, weight, maximumSize, uri, null);
  }

  /**
   * {@return a local shard of weight 1 and the default size}
   *
   * @param id unique node id; also the name its virtual points derive from ({@link Node#idProblem})
   */
  public static NodeConfig local(String id) {
    return new NodeConfig(id, NodeType.LOCAL, 1, DEFAULT_MAXIMUM_SIZE, null);
  }

  /**
   * {@return a Redis node of weight 1}
   *
   * @param id unique node id; also the name its virtual points derive from ({@link Node#idProblem})
   * @param uri Redis URI as written, {@code ${env:NAME}} placeholders unresolved (null for local)
   */
  public static NodeConfig redis(String id, String uri) {
    return new NodeConfig(id, NodeType.REDIS, 1, 0, uri);
  }

  /**
   * {@return a memcached node of weight 1}
   *
   * @param id unique node id; also the name its virtual points derive from ({@link Node#idProblem})
   * @param uri memcached URI as written, {@code ${env:NAME}} placeholders unresolved
   */
  public static NodeConfig memcached(String id, String uri) {
    return new NodeConfig(id, NodeType.MEMCACHED, 1, 0, uri);
  }

  /**
   * {@return this node with another weight}
   *
   * @param weight positive weight
   */
  public NodeConfig withWeight(int weight) {
    return weight == this.weight
        ? this
        : new NodeConfig(id, type, weight, maximumSize, uri, name, readFrom, replicaLag);
  }

  /**
   * {@return this node with the given name; see {@link #name()}}
   *
   * @param name what {@code ketama} and {@code jedis} derive the node's points from instead of the
   *     id (a twemproxy server's or a Jedis shard's name); null when not given
   */
  public NodeConfig withName(String name) {
    return new NodeConfig(id, type, weight, maximumSize, uri, name, readFrom, replicaLag);
  }

  /**
   * {@return this node with the given read settings; see {@link #readFrom()}}
   *
   * @param readFrom where reads go (null: {@link ReadFrom#PRIMARY})
   * @param replicaLag how long reads of a key this JVM wrote stay on the primary (null: {@link
   *     #DEFAULT_REPLICA_LAG})
   */
  public NodeConfig withReadFrom(ReadFrom readFrom, Duration replicaLag) {
    return new NodeConfig(id, type, weight, maximumSize, uri, name, readFrom, replicaLag);
  }

  /**
   * {@return the record's fields as a record prints them, with any password in the URI masked
   * ({@code redis://:****@host}; {@code ${env:NAME}} placeholders stay), so that logging a node or
   * a whole {@link ChashConfig} never prints a secret}
   */
  @Override
  public String toString() {
    return "NodeConfig[id="
        + id
        + ", type="
        + type
        + ", weight="
        + weight
        + ", maximumSize="
        + maximumSize
        + ", uri="
        + ServerUris.masked(uri)
        + ", name="
        + name
        + ", readFrom="
        + readFrom
        + ", replicaLag="
        + replicaLag
        + "]";
  }

  /** {@return this node as a ring member} */
  public Node toNode() {
    return name == null ? Node.of(id, weight) : Node.of(id, weight, name);
  }

  /**
   * The rule of {@code readFrom}: replicas only of a Sentinel-managed Redis shard, since a plain
   * server has none to read from. Null when valid, else what is wrong.
   */
  static String readFromProblem(NodeType type, String uri, ReadFrom readFrom) {
    if (readFrom == ReadFrom.PRIMARY) {
      return null;
    }
    return isSentinelShard(type, uri)
        ? null
        : "is "
            + readFrom.configName()
            + ", which needs a Sentinel-managed shard (type redis, uri redis-sentinel://...#master);"
            + " a plain server has no replicas to read from";
  }

  /**
   * {@return whether this node is a Sentinel-managed Redis shard ({@code redis-sentinel://}): its
   * primary is whichever server its sentinels name, and {@code readFrom} and {@code
   * failover.promotionWait} apply to it}
   */
  boolean isSentinelShard() {
    return isSentinelShard(type, uri);
  }

  static boolean isSentinelShard(NodeType type, String uri) {
    String scheme = RedisUris.SENTINEL_SCHEME + "://";
    return type.equals(NodeType.REDIS)
        && uri != null
        && uri.regionMatches(true, 0, scheme, 0, scheme.length());
  }

  /** The rule of {@code maximumSize} for a type: null when valid, else what is wrong. */
  static String maximumSizeProblem(NodeType type, long maximumSize) {
    if (type.equals(NodeType.LOCAL)) {
      return maximumSize > 0 ? null : "must be a positive integer, was " + maximumSize;
    }
    if (maximumSize == 0) {
      return null;
    }
    if (!type.equals(NodeType.REDIS) && !type.equals(NodeType.MEMCACHED)) {
      return "is only valid for type local";
    }
    boolean memcached = type.equals(NodeType.MEMCACHED);
    return "is only valid for type local; a "
        + (memcached ? "memcached server" : "Redis server")
        + " bounds its memory itself ("
        + (memcached ? "-m" : "maxmemory")
        + ")";
  }

  /**
   * The server a valid Redis or memcached node's URI points to, for duplicate detection: {@code
   * redis:host:port/db} or {@code memcached:host:port}, so a Redis and a memcached node never count
   * as one server; null for other types (a local shard has no server, and what the URI of a type a
   * jar provides names is its factory's business).
   */
  static String server(NodeType type, String uri) {
    if (type.equals(NodeType.MEMCACHED)) {
      return "memcached:" + MemcachedUris.check(uri).server();
    }
    return type.equals(NodeType.REDIS) ? RedisUris.check(uri).server() : null;
  }

  /** The rules of {@code uri} for a type: what is wrong, empty when valid. */
  static List<String> uriProblems(NodeType type, String uri) {
    if (type.equals(NodeType.LOCAL)) {
      return uri == null
          ? List.of()
          : List.of("is only valid for types redis and memcached; add `type: redis` or remove uri");
    }
    if (!type.builtIn()) {
      // its factory checks the rest, naming the node; a secret is chash.yaml's rule for every type
      String password = uri == null ? null : ServerUris.passwordProblem(uri);
      return password == null ? List.of() : List.of(password);
    }
    if (uri == null) {
      return List.of("is required for type " + type.configName());
    }
    return type.equals(NodeType.MEMCACHED)
        ? MemcachedUris.check(uri).problems()
        : RedisUris.check(uri).problems();
  }
}
