package io.github.chash.ring;

import java.util.Collection;

/**
 * Creates ring snapshots. The implementations are package-private; callers see only {@link Ring}.
 */
public final class Rings {
  private Rings() {}

  /**
   * Builds a ring of the given nodes. An empty collection gives an empty ring whose lookups throw.
   *
   * @throws IllegalArgumentException on a duplicate id, naming it
   */
  public static Ring create(RingSettings settings, Collection<Node> nodes) {
    throw new UnsupportedOperationException("TODO: ring implementations");
  }
}
