package io.github.chash.analysis;

import java.util.Locale;

/**
 * A named reason why keys move between a baseline configuration and the current one. Immutable.
 *
 * @param kind what changed
 * @param message what changed, with the old and new values, e.g. {@code hash changed from xxh3 to
 *     murmur3}
 */
public record ChangeCause(Kind kind, String message) {

  /** What changed. */
  public enum Kind {
    /** The placement algorithm: every key is placed afresh. */
    ALGORITHM,
    /** The ketama client reproduced ({@code compat}): digest counts or point names change. */
    COMPAT,
    /** The hash function, or what of a key is hashed: every key gets a new position. */
    HASH,
    /** Virtual points per unit of weight ({@code ring}, {@code ketama}): every arc moves. */
    POINTS_PER_WEIGHT,
    /**
     * A node got a new id but kept its type, weight and URI: its points are derived from the id.
     */
    RENAMED,
    /** A node kept its id but got another weight. */
    REWEIGHTED,
    /** Nodes joined. */
    ADDED,
    /** Nodes left. */
    REMOVED,
    /**
     * {@code jump} and {@code jedis} only: nodes kept their ids but not their list positions, which
     * number jump's buckets and name jedis' unnamed shards' points.
     */
    ORDER;

    /** {@return the kind as written in {@code report.json}, e.g. {@code pointsPerWeight}} */
    public String jsonName() {
      String[] words = name().toLowerCase(Locale.ROOT).split("_");
      StringBuilder b = new StringBuilder(words[0]);
      for (int i = 1; i < words.length; i++) {
        b.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
      }
      return b.toString();
    }
  }
}
