package io.github.chash.maven;

import io.github.chash.config.CheckConfig;
import java.util.function.DoubleFunction;

/**
 * Parses the command-line overrides of the {@code check:} block ({@code -Dchash.maxSkew=...}). The
 * ranges are {@link CheckConfig}'s, the ones {@code chash.yaml} is checked with, so a rule changed
 * there changes both messages; a typo gets a message naming the property and the value instead of
 * Maven's "Unable to parse configuration of mojo". Null or blank: not set.
 */
final class Overrides {
  private Overrides() {}

  /** {@code chash.maxSkew}: as {@code check.maxSkew}. */
  static Double maxSkew(String value) {
    return checked("chash.maxSkew", decimal("chash.maxSkew", value), CheckConfig::maxSkewProblem);
  }

  /** {@code chash.sampleKeys}: as {@code check.sampleKeys}. */
  static Integer sampleKeys(String value) {
    Long n = whole("chash.sampleKeys", value);
    if (n != null) {
      require("chash.sampleKeys", CheckConfig.sampleKeysProblem(n));
    }
    return n == null ? null : n.intValue();
  }

  /** {@code chash.top}: an integer of at least 1 (a console option, not in {@code chash.yaml}). */
  static Integer top(String value) {
    Long n = whole("chash.top", value);
    if (n != null && (n < 1 || n > Integer.MAX_VALUE)) {
      require("chash.top", "must be an integer of at least 1, was " + n);
    }
    return n == null ? null : n.intValue();
  }

  /** {@code chash.maxMoved}: as {@code check.maxMoved}. */
  static Double maxMoved(String value) {
    return checked(
        "chash.maxMoved", decimal("chash.maxMoved", value), CheckConfig::maxMovedProblem);
  }

  /** {@code chash.maxMovedOverIdeal}: as {@code check.maxMovedOverIdeal}. */
  static Double maxMovedOverIdeal(String value) {
    return checked(
        "chash.maxMovedOverIdeal",
        decimal("chash.maxMovedOverIdeal", value),
        CheckConfig::maxMovedOverIdealProblem);
  }

  /** {@code chash.keyPattern}: as {@code check.keyPattern}. */
  static String keyPattern(String value) {
    if (value != null) {
      require("chash.keyPattern", CheckConfig.keyPatternProblem(value));
    }
    return value;
  }

  private static Double checked(String property, Double d, DoubleFunction<String> rule) {
    if (d != null) {
      require(property, rule.apply(d));
    }
    return d;
  }

  private static Double decimal(String property, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      double d = Double.parseDouble(value.strip());
      if (Double.isFinite(d)) {
        return d;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(property + " must be a number, was \"" + value + "\"");
  }

  private static Long whole(String property, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          property + " must be a whole number, was \"" + value + "\"");
    }
  }

  private static void require(String property, String problem) {
    if (problem != null) {
      throw new IllegalArgumentException(property + " " + problem);
    }
  }
}
