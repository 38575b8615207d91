package io.github.chash.ring;

import java.util.Objects;
import java.util.Optional;

/**
 * A physical node of a ring: a unique id, a positive weight and, for {@code ketama} and {@code
 * jedis}, an optional name.
 *
 * <p>The id is also the name virtual points are derived from, so renaming a node moves its keys;
 * {@code ketama} and {@code jedis} derive them from the {@linkplain #name() name} instead when
 * there is one, as the clients they reproduce do (a twemproxy server's name, a Jedis shard's name).
 * Instances are immutable and thread-safe.
 */
public final class Node implements Comparable<Node> {
  private final String id;
  private final int weight;
  private final String name;

  private Node(String id, int weight, String name) {
    this.id = id;
    this.weight = weight;
    this.name = name;
  }

  /**
   * Returns a node of weight 1.
   *
   * @throws IllegalArgumentException if {@code id} is null or blank
   */
  public static Node of(String id) {
    return of(id, 1);
  }

  /**
   * Returns a node with the given weight.
   *
   * @throws IllegalArgumentException if {@code id} is null or blank, or {@code weight} is not
   *     positive
   */
  public static Node of(String id, int weight) {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("node id must not be null or blank; was " + quote(id));
    }
    if (weight <= 0) {
      throw new IllegalArgumentException(
          "weight of node \"" + id + "\" must be a positive integer; was " + weight);
    }
    return new Node(id, weight, null);
  }

  /**
   * Returns a node with a weight and a name: the string {@code ketama} and {@code jedis} derive its
   * points from instead of the id (other algorithms reject named nodes).
   *
   * @throws IllegalArgumentException if {@code id} or {@code name} is null or blank, or {@code
   *     weight} is not positive
   */
  public static Node of(String id, int weight, String name) {
    Node node = of(id, weight);
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "name of node \"" + id + "\" must not be null or blank; was " + quote(name));
    }
    return new Node(node.id, node.weight, name);
  }

  /** The node's unique id. */
  public String id() {
    return id;
  }

  /** The node's weight: its fair share of keys is {@code weight / totalWeight}. */
  public int weight() {
    return weight;
  }

  /**
   * The name {@code ketama} and {@code jedis} derive the node's points from instead of its id, when
   * set.
   */
  public Optional<String> name() {
    return Optional.ofNullable(name);
  }

  /** Orders nodes by id, the order every deterministic tie-break in chash uses. */
  @Override
  public int compareTo(Node other) {
    return id.compareTo(other.id);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Node other
        && id.equals(other.id)
        && weight == other.weight
        && Objects.equals(name, other.name);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, weight, name);
  }

  @Override
  public String toString() {
    if (name != null) {
      return id + "(weight=" + weight + ", name=" + name + ")";
    }
    return weight == 1 ? id : id + "(weight=" + weight + ")";
  }

  private static String quote(String s) {
    return s == null ? "null" : "\"" + s + "\"";
  }
}
