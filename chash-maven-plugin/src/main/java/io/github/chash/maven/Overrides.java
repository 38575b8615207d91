package io.github.chash.maven;

import io.github.chash.config.CheckConfig;

/**
 * Parses the command-line overrides of the {@code check:} block ({@code -Dchash.maxSkew=...}) with
 * the same ranges as {@code chash.yaml}, so that a typo gets a message naming the property and the
 * value instead of Maven's "Unable to parse configuration of mojo". Null or blank: not set.
 */
final class Overrides {
  private Overrides() {}

  /**
   * {@code chash.maxSkew}: a number of at least 1.0 (no node can be below its fair share on
   * average).
   */
  static Double maxSkew(String value) {
    Double d = decimal("chash.maxSkew", value, "a number of at least 1.0");
    if (d != null && !(d >= 1.0)) {
      throw invalid("chash.maxSkew", value, "a number of at least 1.0");
    }
    return d;
  }

  /** {@code chash.sampleKeys}: an integer in [1, {@value CheckConfig#MAX_SAMPLE_KEYS}]. */
  static Integer sampleKeys(String value) {
    String range = "an integer between 1 and " + CheckConfig.MAX_SAMPLE_KEYS;
    if (value == null || value.isBlank()) {
      return null;
    }
    int n;
    try {
      n = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw invalid("chash.sampleKeys", value, range);
    }
    if (n < 1 || n > CheckConfig.MAX_SAMPLE_KEYS) {
      throw invalid("chash.sampleKeys", value, range);
    }
    return n;
  }

  /** {@code chash.top}: an integer of at least 1. */
  static Integer top(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw invalid("chash.top", value, "an integer of at least 1");
  }

  /** {@code chash.maxMoved}: a fraction in (0, 1]. */
  static Double maxMoved(String value) {
    Double d = decimal("chash.maxMoved", value, "a fraction in (0, 1]");
    if (d != null && !(d > 0 && d <= 1)) {
      throw invalid("chash.maxMoved", value, "a fraction in (0, 1]");
    }
    return d;
  }

  /** {@code chash.maxMovedOverIdeal}: a number of at least 1.0. */
  static Double maxMovedOverIdeal(String value) {
    Double d = decimal("chash.maxMovedOverIdeal", value, "a number of at least 1.0");
    if (d != null && !(d >= 1.0)) {
      throw invalid("chash.maxMovedOverIdeal", value, "a number of at least 1.0");
    }
    return d;
  }

  /** {@code chash.keyPattern}: must contain {@code {n}}, as in {@code chash.yaml}. */
  static String keyPattern(String value) {
    if (value == null) {
      return null;
    }
    if (!value.contains("{n}")) {
      throw new IllegalArgumentException(
          "chash.keyPattern must contain {n}; was \"" + value + "\"");
    }
    return value;
  }

  private static Double decimal(String property, String value, String expected) {
    if (value == null || value.isBlank()) {
      return null;
    }
    double d;
    try {
      d = Double.parseDouble(value.strip());
    } catch (NumberFormatException e) {
      throw invalid(property, value, expected);
    }
    if (!Double.isFinite(d)) {
      throw invalid(property, value, expected);
    }
    return d;
  }

  private static IllegalArgumentException invalid(String property, String value, String expected) {
    return new IllegalArgumentException(
        property + " must be " + expected + "; was \"" + value + "\"");
  }
}
