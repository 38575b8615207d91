package io.github.chash.maven;

import java.util.Locale;

/** How every writer spells numbers: thousands separators, shares as percentages. Stateless. */
final class Text {
  private Text() {}

  /** {@code 1,000,000}. */
  static String number(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code 1 node}, {@code 1,000 nodes}. */
  static String count(long n, String noun) {
    return number(n) + " " + noun + (n == 1 ? "" : "s");
  }

  /** A share (0..1) as a percentage with the given decimals; {@code n/a} when not measured. */
  static String percent(double share, int decimals) {
    return Double.isNaN(share)
        ? "n/a"
        : String.format(Locale.ROOT, "%." + decimals + "f%%", share * 100);
  }

  /** A skew (share / fair share): three decimals. */
  static String skew(double skew) {
    return Double.isNaN(skew) ? "n/a" : String.format(Locale.ROOT, "%.3f", skew);
  }

  /** A limit: two decimals. */
  static String limit(double limit) {
    return String.format(Locale.ROOT, "%.2f", limit);
  }
}
