package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the byte sizes of {@code chash.yaml}: a whole number followed by {@code B}, {@code KB},
 * {@code MB} or {@code GB} (powers of 1024), with nothing in between: {@code 512KB}, {@code 1MB}. A
 * unit is required, as for durations. Stateless and thread-safe.
 */
final class Sizes {
  /** The accepted form, as error messages state it. */
  static final String FORM = "a size like 512KB, 1MB or 16MB (KB = 1024 bytes)";

  private static final Pattern SIZE = Pattern.compile("([0-9]{1,10})(B|KB|MB|GB)");

  private Sizes() {}

  /** The message tail for invalid text, or null when it is a size in {@code [1, max]} bytes. */
  static String problem(String text, long max) {
    Matcher m = SIZE.matcher(text);
    if (!m.matches()) {
      return "must be " + FORM + ", was " + Quotes.quote(text);
    }
    long bytes = parseChecked(m);
    if (bytes < 1 || bytes > max) {
      return "must be between 1B and " + format(max) + ", was " + Quotes.quote(text);
    }
    return null;
  }

  /** The bytes of a size that {@link #problem} accepted. */
  static long parse(String text) {
    Matcher m = SIZE.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("must be " + FORM + ", was " + Quotes.quote(text));
    }
    return parseChecked(m);
  }

  /** The size in the largest unit that holds it exactly: {@code 1MB}, {@code 1500B}. */
  static String format(long bytes) {
    String[] units = {"B", "KB", "MB", "GB"};
    int unit = 0;
    long n = bytes;
    while (unit < units.length - 1 && n != 0 && n % 1024 == 0) {
      n /= 1024;
      unit++;
    }
    return n + units[unit];
  }

  private static long parseChecked(Matcher m) {
    long n = Long.parseLong(m.group(1));
    int shift =
        switch (m.group(2)) {
          case "B" -> 0;
          case "KB" -> 10;
          case "MB" -> 20;
          default -> 30;
        };
    return n > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : n << shift;
  }
}
