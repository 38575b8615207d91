package io.github.chash.maven;

import java.math.BigDecimal;
import java.math.RoundingMode;
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
    return Double.isNaN(share) ? "n/a" : fixed(share * 100, decimals) + "%";
  }

  /** A skew (share / fair share): three decimals. */
  static String skew(double skew) {
    return Double.isNaN(skew) ? "n/a" : fixed(skew, 3);
  }

  /** A limit: two decimals. */
  static String limit(double limit) {
    return fixed(limit, 2);
  }

  private static final long[] POWERS = {
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000
  };

  /**
   * {@code value} with {@code decimals} decimals, rounded half up, as {@code %.Nf} would print it.
   * Written out because a report of 10,000 nodes formats some 100,000 numbers, and {@code
   * String.format} took most of the time to write it in a fresh JVM.
   */
  static String fixed(double value, int decimals) {
    if (!Double.isFinite(value) || decimals >= POWERS.length || Math.abs(value) >= 1e9) {
      return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
    double product = Math.abs(value) * POWERS[decimals];
    double fraction = product - Math.floor(product);
    if (Math.abs(fraction - 0.5) < 1e-6) {
      // near a tie the product's rounding error could decide: round the exact value instead
      return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
    }
    long scaled = Math.round(product);
    String digits = Long.toString(scaled);
    StringBuilder b = new StringBuilder(digits.length() + 3);
    if (value < 0) {
      b.append('-');
    }
    if (decimals == 0) {
      return b.append(digits).toString();
    }
    int whole = digits.length() - decimals;
    if (whole <= 0) {
      b.append("0.").append("0".repeat(-whole)).append(digits);
    } else {
      b.append(digits, 0, whole).append('.').append(digits, whole, digits.length());
    }
    return b.toString();
  }
}
