package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import io.github.chash.ring.Node;
import io.github.chash.ring.RingSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A whole {@code chash.yaml}: ring settings, nodes, caches, failover policy, Redis and memcached
 * settings and check limits. Immutable and thread-safe; made by parsing ({@link ChashConfigs}) or
 * with {@link #builder()}. Every value was checked when its record was made ({@link NodeConfig},
 * {@link CacheConfig}, {@link FailoverConfig}, {@link RedisConfig}, {@link MemcachedConfig}, {@link
 * CheckConfig}: each rule is stated once, there); this class adds the rules between values: unique
 * node ids and servers, at least one node, the algorithm's weights. A parsed configuration also
 * knows where each value was written ({@link #where}), so a problem found later (an unset
 * environment variable at startup) still names its line and column.
 */
public final class ChashConfig {
  /** The source name of a configuration built with {@link #builder()} and no {@code source}. */
  public static final String PROGRAMMATIC = "<programmatic>";

  private final String source;
  private final RingSettings ring;
  private final List<NodeConfig> nodes;
  private final Map<String, CacheConfig> caches;
  private final FailoverConfig failover;
  private final MigrationConfig migration;
  private final RedisConfig redis;
  private final MemcachedConfig memcached;
  private final CheckConfig check;
  private final Map<String, String> locations;

  private ChashConfig(
      String source,
      RingSettings ring,
      List<NodeConfig> nodes,
      Map<String, CacheConfig> caches,
      FailoverConfig failover,
      MigrationConfig migration,
      RedisConfig redis,
      MemcachedConfig memcached,
      CheckConfig check,
      Map<String, String> locations) {
    this.source = source;
    this.ring = ring;
    this.nodes = List.copyOf(nodes);
    this.caches = Collections.unmodifiableMap(new LinkedHashMap<>(caches));
    this.failover = failover;
    this.migration = migration;
    this.redis = redis;
    this.memcached = memcached;
    this.check = check;
    this.locations = Map.copyOf(locations);
  }

  /** A parsed file, checked value by value already; {@code locations} by value path. */
  static ChashConfig parsed(
      String source,
      RingSettings ring,
      List<NodeConfig> nodes,
      Map<String, CacheConfig> caches,
      FailoverConfig failover,
      MigrationConfig migration,
      RedisConfig redis,
      MemcachedConfig memcached,
      CheckConfig check,
      Map<String, String> locations) {
    return new ChashConfig(
        source, ring, nodes, caches, failover, migration, redis, memcached, check, locations);
  }

  /** {@return where it came from, for messages ({@code chash.yaml}, or {@value #PROGRAMMATIC})} */
  public String source() {
    return source;
  }

  /** {@return how keys are placed} */
  public RingSettings ring() {
    return ring;
  }

  /** {@return the nodes in file order} */
  public List<NodeConfig> nodes() {
    return nodes;
  }

  /** {@return the named caches in file order} */
  public Map<String, CacheConfig> caches() {
    return caches;
  }

  /** {@return the failure policy} */
  public FailoverConfig failover() {
    return failover;
  }

  /** {@return how a running manager moves to a new node set} */
  public MigrationConfig migration() {
    return migration;
  }

  /** {@return settings shared by Redis nodes} */
  public RedisConfig redis() {
    return redis;
  }

  /** {@return settings shared by memcached nodes} */
  public MemcachedConfig memcached() {
    return memcached;
  }

  /** {@return the limits of {@code chash:check}} */
  public CheckConfig check() {
    return check;
  }

  /** {@return the nodes as ring members} */
  public List<Node> ringNodes() {
    return nodes.stream().map(NodeConfig::toNode).toList();
  }

  /**
   * {@return where the value at {@code path} ({@code nodes[2].uri}, {@code caches.users.ttl}) was
   * written, as messages start: {@code chash.yaml:12:10}; the {@link #source()} alone when it was
   * not written in a file} For problems found after parsing.
   *
   * @param path the value's path, e.g. {@code nodes[2].uri}
   */
  public String where(String path) {
    return locations.getOrDefault(path, source);
  }

  /**
   * {@return this configuration with other nodes (a node added, removed or reweighted), checked as
   * {@link #builder()} checks; what {@code ShardedCacheManager.addNode} and its siblings
   * reconfigure to}
   *
   * @param nodes the nodes, in order
   * @throws IllegalArgumentException or IllegalStateException as {@link Builder#node} and {@link
   *     Builder#build} do
   */
  public ChashConfig withNodes(List<NodeConfig> nodes) {
    Builder b =
        builder()
            .source(source)
            .ring(ring)
            .nodes(nodes)
            .failover(failover)
            .migration(migration)
            .redis(redis)
            .memcached(memcached)
            .check(check);
    caches.values().forEach(b::cache);
    return b.build();
  }

  /** Equal when every setting is (not the source or the positions). */
  @Override
  public boolean equals(Object o) {
    return o instanceof ChashConfig c
        && ring.equals(c.ring)
        && nodes.equals(c.nodes)
        && caches.equals(c.caches)
        && failover.equals(c.failover)
        && migration.equals(c.migration)
        && redis.equals(c.redis)
        && memcached.equals(c.memcached)
        && check.equals(c.check);
  }

  @Override
  public int hashCode() {
    return Objects.hash(ring, nodes, caches, failover, migration, redis, memcached, check);
  }

  @Override
  public String toString() {
    return "ChashConfig{source="
        + source
        + ", ring="
        + ring
        + ", nodes="
        + nodes
        + ", caches="
        + caches.values()
        + ", failover="
        + failover
        + ", migration="
        + migration
        + ", redis="
        + redis
        + ", memcached="
        + memcached
        + ", check="
        + check
        + "}";
  }

  /**
   * {@return a builder with every setting at its default ({@link RingSettings#defaults()}, {@link
   * FailoverConfig#defaults()}, {@link RedisConfig#defaults()}, {@link MemcachedConfig#defaults()},
   * {@link CheckConfig#defaults()}, no caches) and no nodes}
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds a {@link ChashConfig} in code, with the checks {@code chash.yaml} gets. Each setter
   * first checks state (a single-valued setting may be set once), then its argument, and says which
   * in the exception. Not thread-safe.
   */
  public static final class Builder {
    private String source;
    private RingSettings ring;
    private final List<NodeConfig> nodes = new ArrayList<>();
    private final Map<String, String> servers = new HashMap<>();
    private final Map<String, CacheConfig> caches = new LinkedHashMap<>();
    private FailoverConfig failover;
    private MigrationConfig migration;
    private RedisConfig redis;
    private MemcachedConfig memcached;
    private CheckConfig check;

    private Builder() {}

    /**
     * Sets the name used in messages (default {@value ChashConfig#PROGRAMMATIC}).
     *
     * @param source the name messages give the configuration
     * @return this builder
     * @throws IllegalStateException if the source was already set
     * @throws IllegalArgumentException if {@code source} is blank
     */
    public Builder source(String source) {
      requireState(this.source == null, "source was already set to %s", this.source);
      Objects.requireNonNull(source, "source");
      require(!source.isBlank(), "source must not be blank");
      this.source = source;
      return this;
    }

    /**
     * Sets the ring settings.
     *
     * @param ring the ring settings
     * @return this builder
     * @throws IllegalStateException if the ring settings were already set
     */
    public Builder ring(RingSettings ring) {
      requireState(this.ring == null, "ring was already set to %s", this.ring);
      this.ring = Objects.requireNonNull(ring, "ring");
      return this;
    }

    /**
     * Adds a node after those added before; its own values were checked when it was made.
     *
     * @param node the node
     * @return this builder
     * @throws IllegalArgumentException if its id or name is already used, or a Redis or memcached
     *     node's URI points to a server already used
     */
    public Builder node(NodeConfig node) {
      Objects.requireNonNull(node, "node");
      String id = node.id();
      for (NodeConfig other : nodes) {
        require(!other.id().equals(id), "duplicate node id %s", Quotes.quote(id));
      }
      if (node.name() != null) {
        for (NodeConfig other : nodes) {
          require(
              !node.name().equals(other.name()),
              "name %s of node %s is already used by node %s",
              Quotes.quote(node.name()),
              Quotes.quote(id),
              Quotes.quote(other.id()));
        }
      }
      String server = NodeConfig.server(node.type(), node.uri());
      if (server != null) {
        String first = servers.get(server);
        require(
            first == null,
            "uri of node %s points to the same server as node %s (%s)",
            Quotes.quote(id),
            first == null ? null : Quotes.quote(first),
            server);
        servers.put(server, id);
      }
      nodes.add(node);
      return this;
    }

    /**
     * Adds nodes in order; see {@link #node(NodeConfig)}.
     *
     * @param nodes the nodes, in order
     * @return this builder
     * @throws IllegalArgumentException as {@link #node(NodeConfig)} does
     */
    public Builder nodes(Collection<NodeConfig> nodes) {
      nodes.forEach(this::node);
      return this;
    }

    /**
     * Adds a cache; its own values were checked when it was made.
     *
     * @param cache the cache
     * @return this builder
     * @throws IllegalArgumentException if a cache of that name was already added
     */
    public Builder cache(CacheConfig cache) {
      Objects.requireNonNull(cache, "cache");
      require(
          !caches.containsKey(cache.name()),
          "cache %s was already added",
          Quotes.quote(cache.name()));
      caches.put(cache.name(), cache);
      return this;
    }

    /**
     * Sets the failure policy.
     *
     * @param failover the failure policy
     * @return this builder
     * @throws IllegalStateException if it was already set
     */
    public Builder failover(FailoverConfig failover) {
      requireState(this.failover == null, "failover was already set to %s", this.failover);
      this.failover = Objects.requireNonNull(failover, "failover");
      return this;
    }

    /**
     * Sets the migration settings.
     *
     * @param migration the migration settings
     * @return this builder
     * @throws IllegalStateException if they were already set
     */
    public Builder migration(MigrationConfig migration) {
      requireState(this.migration == null, "migration was already set to %s", this.migration);
      this.migration = Objects.requireNonNull(migration, "migration");
      return this;
    }

    /**
     * Sets the Redis settings.
     *
     * @param redis the Redis settings
     * @return this builder
     * @throws IllegalStateException if they were already set
     */
    public Builder redis(RedisConfig redis) {
      requireState(this.redis == null, "redis was already set to %s", this.redis);
      this.redis = Objects.requireNonNull(redis, "redis");
      return this;
    }

    /**
     * Sets the memcached settings.
     *
     * @param memcached the settings
     * @return this builder
     * @throws IllegalStateException if they were already set
     */
    public Builder memcached(MemcachedConfig memcached) {
      requireState(this.memcached == null, "memcached was already set to %s", this.memcached);
      this.memcached = Objects.requireNonNull(memcached, "memcached");
      return this;
    }

    /**
     * Sets the check limits.
     *
     * @param check the limits of {@code chash:check}
     * @return this builder
     * @throws IllegalStateException if they were already set
     */
    public Builder check(CheckConfig check) {
      requireState(this.check == null, "check was already set to %s", this.check);
      this.check = Objects.requireNonNull(check, "check");
      return this;
    }

    /**
     * Builds the configuration.
     *
     * @return the configuration
     * @throws IllegalStateException if no node was added, or a node's weight or name is not one the
     *     algorithm accepts ({@code jump}: weight 1; names: {@code ketama} and {@code jedis})
     */
    public ChashConfig build() {
      requireState(!nodes.isEmpty(), "at least one node is required%s", "");
      RingSettings settings = ring == null ? RingSettings.defaults() : ring;
      for (NodeConfig node : nodes) {
        String problem = settings.algorithm().weightProblem(node.weight());
        requireState(
            problem == null, "%s", "weight of node " + Quotes.quote(node.id()) + " " + problem);
        String nameProblem = node.name() == null ? null : settings.algorithm().nameProblem();
        requireState(
            nameProblem == null,
            "%s",
            "name of node " + Quotes.quote(node.id()) + " " + nameProblem);
      }
      return new ChashConfig(
          source == null ? PROGRAMMATIC : source,
          settings,
          nodes,
          caches,
          failover == null ? FailoverConfig.defaults() : failover,
          migration == null ? MigrationConfig.defaults() : migration,
          redis == null ? RedisConfig.defaults() : redis,
          memcached == null ? MemcachedConfig.defaults() : memcached,
          check == null ? CheckConfig.defaults() : check,
          Map.of());
    }

    private static void requireState(boolean ok, String template, Object arg) {
      if (!ok) {
        throw new IllegalStateException(String.format(template, arg));
      }
    }

    private static void require(boolean ok, String template, Object... args) {
      if (!ok) {
        throw new IllegalArgumentException(String.format(template, args));
      }
    }
  }
}
