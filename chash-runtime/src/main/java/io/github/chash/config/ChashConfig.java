package io.github.chash.config;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.RingSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A whole {@code chash.yaml}: ring settings, nodes, caches, failover policy, Redis settings and
 * check limits. Immutable and thread-safe; build it by parsing ({@link ChashConfigs}) or with
 * {@link #builder()}, which applies the same checks as the parser.
 *
 * @param source where it came from, for messages ({@code chash.yaml}, or {@code <programmatic>})
 * @param ring how keys are placed
 * @param nodes the nodes in file order
 * @param caches named caches in file order
 * @param failover the failure policy
 * @param redis settings shared by Redis nodes
 * @param check limits of {@code chash:check}
 */
public record ChashConfig(
    String source,
    RingSettings ring,
    List<NodeConfig> nodes,
    Map<String, CacheConfig> caches,
    FailoverConfig failover,
    RedisConfig redis,
    CheckConfig check) {

  /** The source name of a configuration built with {@link #builder()} and no {@code source}. */
  public static final String PROGRAMMATIC = "<programmatic>";

  /** Compact constructor: defensive, order-keeping copies. */
  public ChashConfig {
    nodes = List.copyOf(nodes);
    caches = Collections.unmodifiableMap(new LinkedHashMap<>(caches));
  }

  /** The nodes as ring members. */
  public List<Node> ringNodes() {
    return nodes.stream().map(NodeConfig::toNode).toList();
  }

  /**
   * Returns a builder with every setting at its default ({@link RingSettings#defaults()}, {@link
   * FailoverConfig#defaults()}, {@link RedisConfig#defaults()}, {@link CheckConfig#defaults()}, no
   * caches) and no nodes.
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
    private RedisConfig redis;
    private CheckConfig check;

    private Builder() {}

    /**
     * Sets the name used in messages (default {@value ChashConfig#PROGRAMMATIC}).
     *
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
     * @throws IllegalStateException if the ring settings were already set
     */
    public Builder ring(RingSettings ring) {
      requireState(this.ring == null, "ring was already set to %s", this.ring);
      this.ring = Objects.requireNonNull(ring, "ring");
      return this;
    }

    /**
     * Adds a node after those added before.
     *
     * @throws IllegalArgumentException if its id is blank or already used, its weight is not
     *     positive, a local node has no positive {@code maximumSize} or has a URI, or a Redis
     *     node's URI is missing, invalid, holds a plain-text password or points to a server already
     *     used
     */
    public Builder node(NodeConfig node) {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(node.type(), "node type");
      String id = node.id();
      require(id != null && !id.isBlank(), "node id must not be blank; was %s", quote(id));
      for (NodeConfig other : nodes) {
        require(!other.id().equals(id), "duplicate node id %s", quote(id));
      }
      require(
          node.weight() > 0,
          "weight of node %s must be a positive integer, was %s",
          quote(id),
          node.weight());
      if (node.type() == NodeType.LOCAL) {
        require(
            node.maximumSize() > 0,
            "maximumSize of node %s must be a positive integer, was %s",
            quote(id),
            node.maximumSize());
        require(node.uri() == null, "uri of node %s is only valid for type redis", quote(id));
      } else {
        require(
            node.maximumSize() == 0,
            "maximumSize of node %s is only valid for type local",
            quote(id));
        require(node.uri() != null, "uri of node %s is required for type redis", quote(id));
        RedisUris.Checked checked = RedisUris.check(node.uri());
        require(
            checked.problems().isEmpty(),
            "uri of node %s %s",
            quote(id),
            String.join("; ", checked.problems()));
        String first = servers.get(checked.server());
        require(
            first == null,
            "uri of node %s points to the same server as node %s (%s)",
            quote(id),
            quote(first),
            checked.server());
        servers.put(checked.server(), id);
      }
      nodes.add(node);
      return this;
    }

    /**
     * Adds nodes in order; see {@link #node(NodeConfig)}.
     *
     * @throws IllegalArgumentException as {@link #node(NodeConfig)} does
     */
    public Builder nodes(Collection<NodeConfig> nodes) {
      nodes.forEach(this::node);
      return this;
    }

    /**
     * Adds a cache.
     *
     * @throws IllegalArgumentException if its name is blank, contains {@code :} or was already
     *     added, or its ttl is not positive
     */
    public Builder cache(CacheConfig cache) {
      Objects.requireNonNull(cache, "cache");
      String name = cache.name();
      require(name != null && !name.isBlank(), "cache name must not be blank; was %s", quote(name));
      require(!name.contains(":"), "cache name %s must not contain ':'", quote(name));
      require(!caches.containsKey(name), "cache %s was already added", quote(name));
      require(
          cache.ttl() == null || positive(cache.ttl()),
          "ttl of cache %s must be positive, was %s",
          quote(name),
          cache.ttl());
      caches.put(name, cache);
      return this;
    }

    /**
     * Sets the failure policy.
     *
     * @throws IllegalStateException if it was already set
     * @throws IllegalArgumentException if {@code failureLimit} is not positive or a duration is not
     *     positive
     */
    public Builder failover(FailoverConfig failover) {
      requireState(this.failover == null, "failover was already set to %s", this.failover);
      Objects.requireNonNull(failover, "failover");
      require(
          failover.failureLimit() >= 1,
          "failureLimit must be a positive integer, was %s",
          failover.failureLimit());
      require(
          positive(failover.retryAfter()),
          "retryAfter must be positive, was %s",
          failover.retryAfter());
      require(positive(failover.timeout()), "timeout must be positive, was %s", failover.timeout());
      require(
          positive(failover.fallbackTtl()),
          "fallbackTtl must be positive, was %s",
          failover.fallbackTtl());
      Objects.requireNonNull(failover.onRejoin(), "onRejoin");
      this.failover = failover;
      return this;
    }

    /**
     * Sets the Redis settings.
     *
     * @throws IllegalStateException if they were already set
     * @throws IllegalArgumentException if the key prefix is empty, the codec unknown or an allow
     *     pattern invalid
     */
    public Builder redis(RedisConfig redis) {
      requireState(this.redis == null, "redis was already set to %s", this.redis);
      Objects.requireNonNull(redis, "redis");
      require(
          redis.keyPrefix() != null && !redis.keyPrefix().isEmpty(),
          "keyPrefix must not be empty: onRejoin flush deletes every key with this prefix");
      require(
          RedisBlock.CODECS.contains(redis.codec()),
          "codec must be one of %s; was %s",
          String.join(", ", RedisBlock.CODECS),
          quote(redis.codec()));
      require(
          redis.maxValueSize() >= 1 && redis.maxValueSize() <= RedisConfig.MAX_VALUE_SIZE_LIMIT,
          "maxValueSize must be between 1 and %s bytes, was %s",
          RedisConfig.MAX_VALUE_SIZE_LIMIT,
          redis.maxValueSize());
      for (String pattern : redis.allowedClasses()) {
        String problem = RedisBlock.patternProblem(pattern);
        require(problem == null, "allow pattern %s", problem);
      }
      this.redis = redis;
      return this;
    }

    /**
     * Sets the check limits.
     *
     * @throws IllegalStateException if they were already set
     * @throws IllegalArgumentException if a limit is out of its range (see the package
     *     documentation)
     */
    public Builder check(CheckConfig check) {
      requireState(this.check == null, "check was already set to %s", this.check);
      Objects.requireNonNull(check, "check");
      require(check.maxSkew() >= 1.0, "maxSkew must be at least 1.0, was %s", check.maxSkew());
      require(
          check.sampleKeys() >= 1 && check.sampleKeys() <= CheckBlock.MAX_SAMPLE_KEYS,
          "sampleKeys must be an integer between 1 and %s, was %s",
          CheckBlock.MAX_SAMPLE_KEYS,
          check.sampleKeys());
      require(
          check.keyPattern() != null && check.keyPattern().contains("{n}"),
          "keyPattern must contain {n}, was %s",
          quote(check.keyPattern()));
      require(
          check.maxMoved() == null || check.maxMoved() > 0 && check.maxMoved() <= 1,
          "maxMoved must be a fraction in (0, 1], was %s",
          check.maxMoved());
      require(
          check.maxMovedOverIdeal() == null || check.maxMovedOverIdeal() >= 1,
          "maxMovedOverIdeal must be at least 1.0, was %s",
          check.maxMovedOverIdeal());
      this.check = check;
      return this;
    }

    /**
     * Builds the configuration.
     *
     * @throws IllegalStateException if no node was added, or the algorithm is {@code jump} and a
     *     node's weight is not 1
     */
    public ChashConfig build() {
      requireState(!nodes.isEmpty(), "at least one node is required%s", "");
      if (ring != null && ring.algorithm() == Algorithm.JUMP) {
        for (NodeConfig node : nodes) {
          if (node.weight() != 1) {
            throw new IllegalStateException(
                "weight of node "
                    + quote(node.id())
                    + " must be 1 for algorithm jump (jump knows"
                    + " buckets, not weights), was "
                    + node.weight());
          }
        }
      }
      return new ChashConfig(
          source == null ? PROGRAMMATIC : source,
          ring == null ? RingSettings.defaults() : ring,
          nodes,
          caches,
          failover == null ? FailoverConfig.defaults() : failover,
          redis == null ? RedisConfig.defaults() : redis,
          check == null ? CheckConfig.defaults() : check);
    }

    private static boolean positive(Duration d) {
      return d != null && !d.isNegative() && !d.isZero();
    }

    private static String quote(String s) {
      return s == null ? "null" : Scalars.quote(s);
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
