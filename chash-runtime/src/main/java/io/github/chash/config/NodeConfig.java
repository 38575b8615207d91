package io.github.chash.config;

import io.github.chash.ring.Node;

/**
 * One entry of {@code nodes:}.
 *
 * @param id unique node id; also the name its virtual points derive from
 * @param type local shard or Redis server
 * @param weight positive weight
 * @param maximumSize entry bound of a local shard (0 when not a local node)
 * @param uri Redis URI as written, {@code ${env:NAME}} placeholders unresolved (null for local)
 * @param name what {@code ketama} and {@code jedis} derive the node's points from instead of the id
 *     (a twemproxy server's or a Jedis shard's name); null when not given
 */
public record NodeConfig(
    String id, NodeType type, int weight, long maximumSize, String uri, String name) {

  /** Default entry bound of a local shard. */
  public static final long DEFAULT_MAXIMUM_SIZE = 10_000;

  /** A node without a name. */
  public NodeConfig(String id, NodeType type, int weight, long maximumSize, String uri) {
    this(id, type, weight, maximumSize, uri, null);
  }

  /** A local shard of weight 1 and the default size. */
  public static NodeConfig local(String id) {
    return new NodeConfig(id, NodeType.LOCAL, 1, DEFAULT_MAXIMUM_SIZE, null);
  }

  /** A Redis node of weight 1. */
  public static NodeConfig redis(String id, String uri) {
    return new NodeConfig(id, NodeType.REDIS, 1, 0, uri);
  }

  /** This node with the given name; see {@link #name()}. */
  public NodeConfig withName(String name) {
    return new NodeConfig(id, type, weight, maximumSize, uri, name);
  }

  /** This node as a ring member. */
  public Node toNode() {
    return name == null ? Node.of(id, weight) : Node.of(id, weight, name);
  }
}
