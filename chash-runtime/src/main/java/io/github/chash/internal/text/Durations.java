package io.github.chash.internal.text;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats the durations of {@code chash.yaml} and of annotation attributes: a
 * non-negative whole number followed by a unit, {@code ms}, {@code s}, {@code m}, {@code h} or
 * {@code d}, with nothing in between: {@code 100ms}, {@code 30s}, {@code 10m}, {@code 2h}, {@code
 * 1d}. Fractions, signs, spaces, ISO-8601 and missing units are rejected, so that {@code 10} never
 * silently means ten milliseconds to one reader and ten seconds to another.
 *
 * <p>Stateless and thread-safe.
 */
public final class Durations {
  /** The accepted form, as error messages state it. */
  public static final String FORM = "a duration like 100ms, 30s, 10m, 2h or 1d";

  private static final Pattern DURATION = Pattern.compile("([0-9]{1,18})(ms|s|m|h|d)");

  private Durations() {}

  /**
   * Parses a duration such as {@code 10m}; messages call it "value".
   *
   * @param text the duration as written, e.g. {@code 10m}
   * @return the duration
   * @throws IllegalArgumentException if the text is not a number followed by {@code ms}, {@code s},
   *     {@code m}, {@code h} or {@code d}, or the duration overflows
   */
  public static Duration parse(String text) {
    return parse(text, "value");
  }

  /**
   * Parses a duration such as {@code 10m}; {@code name} names it in the message, e.g. {@code ttl}
   * gives {@code ttl must be a duration like 100ms, 30s, 10m, 2h or 1d, was "10"}.
   *
   * @param text the duration as written, e.g. {@code 10m}
   * @param name what the message calls the value, e.g. {@code ttl}
   * @return the duration
   * @throws IllegalArgumentException if the text is not a number followed by {@code ms}, {@code s},
   *     {@code m}, {@code h} or {@code d}, or the duration overflows
   */
  public static Duration parse(String text, String name) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(name, "name");
    String problem = problem(text);
    if (problem != null) {
      throw new IllegalArgumentException(name + " " + problem);
    }
    return parseChecked(text);
  }

  /**
   * Formats a duration in the largest unit that represents it exactly, so that {@code
   * parse(format(d)).equals(d)} for every non-negative duration of whole milliseconds.
   *
   * @param duration the duration, not negative
   * @return the duration as {@link #parse(String)} reads it
   * @throws IllegalArgumentException if the duration is negative or has a fraction of a millisecond
   */
  public static String format(Duration duration) {
    if (duration.isNegative() || duration.getNano() % 1_000_000 != 0) {
      throw new IllegalArgumentException(
          "duration must be non-negative whole milliseconds; was " + duration);
    }
    long ms = duration.toMillis();
    if (ms != 0 && ms % 86_400_000L == 0) {
      return ms / 86_400_000L + "d";
    } else if (ms != 0 && ms % 3_600_000L == 0) {
      return ms / 3_600_000L + "h";
    } else if (ms != 0 && ms % 60_000L == 0) {
      return ms / 60_000L + "m";
    } else if (ms != 0 && ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }

  /**
   * {@return the message tail for invalid text ({@code must be ..., was "..."}), or null when
   * valid}
   *
   * @param text the duration as written
   */
  public static String problem(String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      return "must be " + FORM + ", was " + Quotes.quote(text);
    }
    try {
      parseChecked(text);
      return null;
    } catch (ArithmeticException e) {
      return "is too long, was " + Quotes.quote(text);
    }
  }

  private static Duration parseChecked(String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw new IllegalStateException("checked before");
    }
    long n = Long.parseLong(m.group(1));
    switch (m.group(2)) {
      case "ms":
        return Duration.ofMillis(n);
      case "s":
        return Duration.ofSeconds(n);
      case "m":
        return Duration.ofMinutes(n); // these three throw ArithmeticException on overflow
      case "h":
        return Duration.ofHours(n);
      default:
        return Duration.ofDays(n);
    }
  }
}
