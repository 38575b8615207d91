package io.github.chash.config;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/** Percentages as {@code chash.yaml} writes them: {@code 10%}, {@code 2.5%}. */
final class Percentages {
  static final String FORM = "a percentage like 10% or 2.5%";
  private static final Pattern PERCENT = Pattern.compile("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)%");

  private Percentages() {}

  /** {@return null when {@code text} is a percentage, else what is wrong} */
  static String problem(String text) {
    return text != null && PERCENT.matcher(text.strip()).matches() ? null : "must be " + FORM;
  }

  /** {@return the fraction {@code text} (checked by {@link #problem}) stands for: 10% is 0.1} */
  static double parse(String text) {
    String t = text.strip();
    return Double.parseDouble(t.substring(0, t.length() - 1)) / 100;
  }

  /** {@return the fraction as a percentage: 0.1 is {@code 10%}} */
  static String format(double fraction) {
    if (!Double.isFinite(fraction)) {
      return String.valueOf(fraction);
    }
    double percent = Math.round(fraction * 1_000_000) / 10_000.0; // to 4 decimals: no 10.000001
    return BigDecimal.valueOf(percent).stripTrailingZeros().toPlainString() + "%";
  }
}
