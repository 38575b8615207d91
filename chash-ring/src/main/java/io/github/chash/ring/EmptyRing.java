package io.github.chash.ring;

import java.util.List;
import java.util.Map;

/** A ring without nodes: every lookup fails, ownership is empty. */
final class EmptyRing implements Ring {
  private static final int MAX_SHOWN = 100;

  private final RingSettings settings;

  EmptyRing(RingSettings settings) {
    this.settings = settings;
  }

  @Override
  public RingSettings settings() {
    return settings;
  }

  @Override
  public List<Node> nodes() {
    return List.of();
  }

  @Override
  public Node locate(CharSequence key) {
    throw noNodes(key);
  }

  @Override
  public int locateIndex(CharSequence key) {
    throw noNodes(key);
  }

  @Override
  public List<Node> locate(CharSequence key, int n) {
    throw noNodes(key);
  }

  @Override
  public int locateIndex(CharSequence key, java.util.function.IntPredicate usable) {
    throw noNodes(key);
  }

  @Override
  public Map<String, Double> ownership() {
    return Map.of();
  }

  private static IllegalStateException noNodes(CharSequence key) {
    if (key == null) {
      throw new IllegalArgumentException("key must not be null");
    }
    return new IllegalStateException("ring has no nodes; cannot locate key " + shown(key));
  }

  /** The key quoted, cut short when long: a message must not carry a megabyte key. */
  static String shown(CharSequence key) {
    if (key.length() <= MAX_SHOWN) {
      return "\"" + key + "\"";
    }
    int end = MAX_SHOWN;
    if (Character.isHighSurrogate(key.charAt(end - 1))) {
      end--; // do not cut a surrogate pair in half
    }
    return "\"" + key.subSequence(0, end) + "...\" (" + key.length() + " chars)";
  }

  @Override
  public String toString() {
    return "EmptyRing{" + settings + "}";
  }
}
