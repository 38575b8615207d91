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
   * @throws IllegalArgumentException if {@code id} breaks {@link #idProblem}'s rule
   */
  public static Node of(String id) {
    return of(id, 1);
  }

  /**
   * Returns a node with the given weight.
   *
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
    return new Node(id, weight);
  }

  /**
   * The rule of node ids, everywhere one is given ({@code chash.yaml}, builders, rings): null when
   * {@code id} is valid, else what is wrong ({@code must not be blank, was ""}). An id is not
   * blank, has no white space at either end, and every character is visible: no control or format
   * characters (an invisible U+200B would make two ids that print the same), no line or paragraph
   * separators, no space other than U+0020, no unassigned or private-use code point, no unpaired
   * surrogate.
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

  /** The rule of weights: null when positive, else what is wrong. */
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
