package io.github.chash.config;

import io.github.chash.internal.text.Quotes;

/**
 * The {@code check:} block: the limits {@code chash:check} enforces and how it samples keys; its
 * constructor applies the rules {@code chash.yaml} gets.
 *
 * @param maxSkew largest allowed node share divided by its fair share (weight / total weight), at
 *     least 1.0
 * @param sampleKeys number of keys sampled, 1 to {@value #MAX_SAMPLE_KEYS}
 * @param keyPattern synthetic key pattern, {@code {n}} replaced by 0, 1, 2, ...; must contain
 *     {@code {n}}
 * @param keysFile a file of real keys, one a line, relative to the config file (null: use the
 *     pattern)
 * @param baseline the configuration to compare against for movement limits (a file, or {@code
 *     groupId:artifactId:version}); null for none
 * @param maxMoved largest allowed fraction of keys moved against the baseline, in (0, 1] (null: no
 *     limit)
 * @param maxMovedOverIdeal largest allowed ratio of moved keys to the ideal minimum, at least 1.0
 *     (null: no limit)
 */
public record CheckConfig(
    double maxSkew,
    int sampleKeys,
    String keyPattern,
    String keysFile,
    String baseline,
    Double maxMoved,
    Double maxMovedOverIdeal) {

  /** Most keys {@code sampleKeys} may ask for. */
  public static final int MAX_SAMPLE_KEYS = 100_000_000;

  /** The rule of {@code sampleKeys}. */
  static final Rules.Whole SAMPLE_KEYS =
      new Rules.Whole(1, MAX_SAMPLE_KEYS, "an integer between 1 and " + MAX_SAMPLE_KEYS);

  /**
   * Checks the values.
   *
   * @param maxSkew largest allowed node share divided by its fair share (weight / total weight), at
   *     least 1.0
   * @param sampleKeys number of keys sampled, 1 to {@value #MAX_SAMPLE_KEYS}
   * @param keyPattern synthetic key pattern, {@code {n}} replaced by 0, 1, 2, ...; must contain
   *     {@code {n}}
   * @param keysFile a file of real keys, one a line, relative to the config file (null: use the
   *     pattern)
   * @param baseline the configuration to compare against for movement limits (a file, or {@code
   *     groupId:artifactId:version}); null for none
   * @param maxMoved largest allowed fraction of keys moved against the baseline, in (0, 1] (null:
   *     no limit)
   * @param maxMovedOverIdeal largest allowed ratio of moved keys to the ideal minimum, at least 1.0
   *     (null: no limit)
   * @throws IllegalArgumentException if a value breaks its rule
   */
  public CheckConfig {
    Rules.require("check.maxSkew", maxSkewProblem(maxSkew));
    Rules.require("check.sampleKeys", SAMPLE_KEYS.problem(sampleKeys));
    Rules.require("check.keyPattern", keyPatternProblem(keyPattern));
    Rules.require("check.maxMoved", maxMoved == null ? null : maxMovedProblem(maxMoved));
    Rules.require(
        "check.maxMovedOverIdeal",
        maxMovedOverIdeal == null ? null : maxMovedOverIdealProblem(maxMovedOverIdeal));
  }

  /**
   * {@return what is wrong with {@code sampleKeys}, or null when it is valid}
   *
   * @param sampleKeys the number of sample keys
   */
  public static String sampleKeysProblem(long sampleKeys) {
    return SAMPLE_KEYS.problem(sampleKeys);
  }

  /**
   * {@return the defaults: maxSkew 1.20, 1,000,000 keys of pattern {@code key:{n}}, no baseline}
   */
  public static CheckConfig defaults() {
    return new CheckConfig(1.20, 1_000_000, "key:{n}", null, null, null, null);
  }

  /**
   * {@return the rule of {@code maxSkew}: null when valid, else what is wrong}
   *
   * @param maxSkew largest allowed node share divided by its fair share (weight / total weight), at
   *     least 1.0
   */
  public static String maxSkewProblem(double maxSkew) {
    return maxSkew >= 1.0
        ? null
        : "must be at least 1.0 (a node's share / its fair share), was " + number(maxSkew);
  }

  /**
   * {@return the rule of {@code keyPattern}: null when valid, else what is wrong}
   *
   * @param keyPattern synthetic key pattern, {@code {n}} replaced by 0, 1, 2, ...; must contain
   *     {@code {n}}
   */
  public static String keyPatternProblem(String keyPattern) {
    return keyPattern != null && keyPattern.contains("{n}")
        ? null
        : "must contain {n}, was " + (keyPattern == null ? "null" : Quotes.quote(keyPattern));
  }

  /**
   * {@return the rule of {@code maxMoved}: null when valid, else what is wrong}
   *
   * @param maxMoved largest allowed fraction of keys moved against the baseline, in (0, 1] (null:
   *     no limit)
   */
  public static String maxMovedProblem(double maxMoved) {
    return maxMoved > 0 && maxMoved <= 1
        ? null
        : "must be a fraction in (0, 1], was " + number(maxMoved);
  }

  /**
   * {@return the rule of {@code maxMovedOverIdeal}: null when valid, else what is wrong}
   *
   * @param maxMovedOverIdeal largest allowed ratio of moved keys to the ideal minimum, at least 1.0
   *     (null: no limit)
   */
  public static String maxMovedOverIdealProblem(double maxMovedOverIdeal) {
    return maxMovedOverIdeal >= 1
        ? null
        : "must be at least 1.0 (moved keys / the ideal minimum), was " + number(maxMovedOverIdeal);
  }

  /** {@code 0.9}, {@code 2}: as a person writes it. */
  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }
}
