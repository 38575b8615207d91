package io.github.chash.ring;

import java.util.List;
import java.util.Map;

/** A ring without nodes: every lookup fails, ownership is empty. */
final class EmptyRing implements Ring {
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
  public List<Node> locate(CharSequence key, int n) {
    throw noNodes(key);
  }

  @Override
  public Map<String, Double> ownership() {
    return Map.of();
  }

  private static IllegalStateException noNodes(CharSequence key) {
    return new IllegalStateException(
        "ring has no nodes; cannot locate key " + (key == null ? "null" : "\"" + key + "\""));
  }

  @Override
  public String toString() {
    return "EmptyRing{" + settings + "}";
  }
}
