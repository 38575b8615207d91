package io.github.chash.config;

import io.github.chash.internal.text.Durations;
import io.github.chash.internal.text.Quotes;
import java.time.Duration;

/**
 * The value rules of {@code chash.yaml}'s records, each stated once. A record's constructor checks
 * its values with them (plain messages, for code), and the YAML blocks report the same rule's text
 * at the value's line and column; the aspect and the build-time scanner call them for annotation
 * attributes. A rule answers null for a valid value, else the message tail after the value's name
 * ({@code must be a positive integer, was 0}).
 */
final class Rules {
  private Rules() {}

  /** A whole number in {@code [min, max]}; {@code what} says it in words ("a positive integer"). */
  record Whole(long min, long max, String what) {
    String problem(long value) {
      return value >= min && value <= max ? null : "must be " + what + ", was " + value;
    }
  }

  /**
   * The shape every {@code keyPrefix} has: one segment ending in {@code :} (such as {@code app:}).
   * Routing keys start with a cache name, which has no {@code :}, so a key's application is its
   * text up to the first colon: no two applications with different prefixes share a key, and one's
   * flush or sweep (every key starting with its prefix) never touches the other's, as {@code app:}
   * and {@code app:v2:} would.
   *
   * @return null when the prefix has that shape, else what is wrong
   */
  static String keyPrefixShape(String keyPrefix) {
    int colon = keyPrefix.indexOf(':');
    return colon == keyPrefix.length() - 1
        ? null
        : "must end with ':' and have no other ':' (one segment, such as \"app:\" or"
            + " \"app-v2:\"), so that no other application's prefix can start with it (\"app:\""
            + " and \"app:v2:\" would share keys, and one's flush would delete the other's); was "
            + Quotes.quote(keyPrefix);
  }

  /** A positive duration. */
  static String positive(Duration d) {
    return positive(d, d == null ? "null" : shown(d));
  }

  /** A positive duration, quoted as {@code written} in the message (the text of a file). */
  static String positive(Duration d, String written) {
    if (d == null) {
      return "must not be null";
    }
    return d.isZero() || d.isNegative() ? "must be positive, was " + written : null;
  }

  /** A duration of zero or more. */
  static String notNegative(Duration d) {
    if (d == null) {
      return "must not be null";
    }
    return d.isNegative() ? "must not be negative, was " + shown(d) : null;
  }

  /** Throws naming {@code subject} when {@code problem} is not null: a record's value check. */
  static void require(String subject, String problem) {
    if (problem != null) {
      throw new IllegalArgumentException(subject + " " + problem);
    }
  }

  /** A duration as chash.yaml writes it ({@code 10m}), else as Java does. */
  static String shown(Duration d) {
    try {
      return Quotes.quote(Durations.format(d));
    } catch (IllegalArgumentException notWhole) {
      return d.toString();
    }
  }
}
