package io.github.chash.analysis;

import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.Rings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A what-if membership change: nodes to remove, then nodes to add. Immutable.
 *
 * @param removed ids of nodes to remove
 * @param added nodes to add
 */
public record RingChange(List<String> removed, List<Node> added) {

  /**
   * Compact constructor: defensive copies.
   *
   * @param removed ids of nodes to remove
   * @param added nodes to add
   */
  public RingChange {
    removed = List.copyOf(removed);
    added = List.copyOf(added);
  }

  /**
   * Parses command-line specs: {@code remove} is a comma-separated list of node ids; {@code add} a
   * comma-separated list of {@code ID[:WEIGHT]}. The text after the last colon is the weight when
   * it is an integer, so an id that itself ends in {@code :port} needs its weight spelled out
   * ({@code 10.0.0.9:6379:1}). Null or blank specs mean none.
   *
   * @param add the nodes to add, as {@code id[:weight],...}, or null
   * @param remove the ids of the nodes to remove, comma separated, or null
   * @return the change
   * @throws IllegalArgumentException naming the bad entry
   */
  public static RingChange parse(String add, String remove) {
    List<String> removed = new ArrayList<>();
    for (String id : split(remove)) {
      removed.add(id);
    }
    List<Node> added = new ArrayList<>();
    for (String spec : split(add)) {
      added.add(parseNode(spec));
    }
    return new RingChange(removed, added);
  }

  /** {@return whether the change does nothing} */
  public boolean isEmpty() {
    return removed.isEmpty() && added.isEmpty();
  }

  /**
   * {@return the ring after the change} Node order is kept and added nodes go last, as editing the
   * node list would do ({@code jump} places by list order).
   *
   * @param ring the ring before the change
   * @throws IllegalArgumentException if a removed id is not in the ring or an added id already is
   */
  public Ring applyTo(Ring ring) {
    List<Node> next = new ArrayList<>(ring.nodes());
    for (String id : removed) {
      if (!next.removeIf(n -> n.id().equals(id))) {
        throw new IllegalArgumentException(
            "cannot remove node \"" + id + "\": no such node in the ring");
      }
    }
    if (next.isEmpty() && added.isEmpty()) {
      throw new IllegalArgumentException(
          "cannot remove " + String.join(", ", removed) + ": no node would be left in the ring");
    }
    Set<String> ids = new HashSet<>();
    next.forEach(n -> ids.add(n.id()));
    for (Node n : added) {
      if (!ids.add(n.id())) {
        throw new IllegalArgumentException(
            "cannot add node \"" + n.id() + "\": the ring already has it");
      }
      next.add(n);
    }
    return Rings.create(ring.settings(), next);
  }

  /** {@return a short description, e.g. {@code remove a, add b (weight 2)}} */
  public String describe() {
    List<String> parts = new ArrayList<>();
    if (!removed.isEmpty()) {
      parts.add("remove " + String.join(", ", removed));
    }
    if (!added.isEmpty()) {
      parts.add(
          "add "
              + String.join(
                  ", ", added.stream().map(n -> n.id() + " (weight " + n.weight() + ")").toList()));
    }
    return parts.isEmpty() ? "no change" : String.join("; ", parts);
  }

  private static Node parseNode(String spec) {
    int colon = spec.lastIndexOf(':');
    if (colon > 0 && colon == spec.length() - 1) {
      throw new IllegalArgumentException(
          "weight of added node \""
              + spec
              + "\" is missing after the last ':'; write ID or ID:WEIGHT");
    }
    if (colon > 0) {
      String tail = spec.substring(colon + 1);
      // a number that is no integer is a mistyped weight, not the end of an id
      if (tail.matches("[-+]?[0-9]*[.,]?[0-9]+([eE][-+]?[0-9]+)?")) {
        int weight;
        try {
          weight = Integer.parseInt(tail);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "weight of added node \"" + spec + "\" must be a positive integer; was " + tail, e);
        }
        return Node.of(spec.substring(0, colon), weight);
      }
    }
    return Node.of(spec);
  }

  private static List<String> split(String spec) {
    if (spec == null || spec.isBlank()) {
      return List.of();
    }
    List<String> parts = new ArrayList<>();
    for (String p : spec.split(",")) {
      if (!p.isBlank()) {
        parts.add(p.strip());
      }
    }
    return parts;
  }
}
