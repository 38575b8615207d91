package io.github.chash.ring;

import java.util.Objects;

/**
 * A physical node of a ring: a unique id and a positive weight.
 *
 * <p>The id is also the name virtual points are derived from, so renaming a node moves its keys.
 * Instances are immutable and thread-safe.
 */
public final class Node implements Comparable<Node> {
  private final String id;
  private final int weight;

  private Node(String id, int weight) {
    this.id = id;
    this.weight = weight;
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
    return new Node(id, weight);
  }

  /** The node's unique id. */
  public String id() {
    return id;
  }

  /** The node's weight: its fair share of keys is {@code weight / totalWeight}. */
  public int weight() {
    return weight;
  }

  /** Orders nodes by id, the order every deterministic tie-break in chash uses. */
  @Override
  public int compareTo(Node other) {
    return id.compareTo(other.id);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Node other && id.equals(other.id) && weight == other.weight;
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, weight);
  }

  @Override
  public String toString() {
    return weight == 1 ? id : id + "(weight=" + weight + ")";
  }

  private static String quote(String s) {
    return s == null ? "null" : "\"" + s + "\"";
  }
}
