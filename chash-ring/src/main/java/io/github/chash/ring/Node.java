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
   * {@return a node of weight 1}
   *
   * @param id the node's id
   * @throws IllegalArgumentException if {@code id} breaks {@link #idProblem}'s rule
   */
  public static Node of(String id) {
    return of(id, 1);
  }

  /**
   * {@return a node with the given weight}
   *
   * @param id the node's id
   * @param weight the weight
   * @throws IllegalArgumentException if {@code id} breaks {@link #idProblem}'s rule, or {@code
   *     weight} is not positive
   */
  public static Node of(String id, int weight) {
    String idProblem = idProblem(id);
    if (idProblem != null) {
      throw new IllegalArgumentException("node id " + idProblem);
    }
    String weightProblem = weightProblem(weight);
    if (weightProblem != null) {
      throw new IllegalArgumentException("weight of node " + quote(id) + " " + weightProblem);
    }
    return new Node(id, weight, null);
  }

  /**
   * {@return a node with a weight and a name: the string {@code ketama} and {@code jedis} derive
   * its points from instead of the id (other algorithms reject named nodes)}
   *
   * @param id the node's id
   * @param weight the weight
   * @param name the name the points are derived from
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

  /**
   * {@return the rule of node ids, everywhere one is given ({@code chash.yaml}, builders, rings):
   * null when {@code id} is valid, else what is wrong ({@code must not be blank, was ""})} An id is
   * not blank, has no white space at either end, and every character is visible: no control or
   * format characters (an invisible U+200B would make two ids that print the same), no line or
   * paragraph separators, no space other than U+0020, no unassigned or private-use code point, no
   * unpaired surrogate.
   *
   * @param id the node's id
   */
  public static String idProblem(String id) {
    if (id == null) {
      return "must not be blank, was null";
    }
    if (id.isBlank()) {
      return "must not be blank, was " + quote(id);
    }
    if (!id.equals(id.strip())) {
      return "must not start or end with white space, was " + quote(id);
    }
    for (int i = 0; i < id.length(); ) {
      int cp = id.codePointAt(i);
      if (!visible(cp)) {
        return String.format(
            "must contain only visible characters, was %s (U+%04X at index %d)",
            quote(printable(id)), cp, i);
      }
      i += Character.charCount(cp);
    }
    return null;
  }

  /**
   * {@return the rule of weights: null when positive, else what is wrong}
   *
   * @param weight the weight
   */
  public static String weightProblem(long weight) {
    return weight > 0 ? null : "must be a positive integer, was " + weight;
  }

  private static boolean visible(int cp) {
    if (cp == ' ') {
      return true;
    }
    switch (Character.getType(cp)) {
      case Character.CONTROL:
      case Character.FORMAT:
      case Character.LINE_SEPARATOR:
      case Character.PARAGRAPH_SEPARATOR:
      case Character.SPACE_SEPARATOR:
      case Character.UNASSIGNED:
      case Character.PRIVATE_USE:
      case Character.SURROGATE:
        return false;
      default:
        return true;
    }
  }

  /** The id with each invisible code point shown as {@code \}{@code uXXXX}, for messages. */
  private static String printable(String id) {
    StringBuilder out = new StringBuilder();
    id.codePoints()
        .forEach(
            cp -> {
              if (visible(cp)) {
                out.appendCodePoint(cp);
              } else if (cp == '\n') {
                out.append("\\n");
              } else if (cp == '\t') {
                out.append("\\t");
              } else if (cp == '\r') {
                out.append("\\r");
              } else {
                out.append(String.format("\\u%04X", cp));
              }
            });
    return out.toString();
  }

  /** {@return the node's unique id} */
  public String id() {
    return id;
  }

  /** {@return the node's weight: its fair share of keys is {@code weight / totalWeight}} */
  public int weight() {
    return weight;
  }

  /**
   * {@return the name {@code ketama} and {@code jedis} derive the node's points from instead of its
   * id, when set}
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
