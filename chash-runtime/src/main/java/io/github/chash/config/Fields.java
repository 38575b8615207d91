package io.github.chash.config;

import io.github.chash.internal.text.Durations;
import io.github.chash.internal.text.Quotes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;

/**
 * Typed reads of one key of a {@link YamlMap}. A missing key gives the default; a bad value adds a
 * problem at the value and gives the default too, so reading goes on and finds every problem.
 */
final class Fields {
  private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9]+");
  private static final Pattern DECIMAL =
      Pattern.compile("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");

  private final YamlMap map;
  private final Problems problems;

  Fields(YamlMap map) {
    this.map = map;
    this.problems = map.problems();
  }

  /** A non-empty string. */
  String string(String key, String fallback) {
    Optional<Node> value = map.get(key);
    if (value.isEmpty()) {
      return fallback;
    }
    Node node = value.get();
    String text = Scalars.text(node);
    if (!(node instanceof ScalarNode) || text == null || text.isEmpty()) {
      problems.at(
          node, map.child(key) + " must be a non-empty string, was " + Scalars.describe(node));
      return fallback;
    }
    return text;
  }

  /** One of {@code choices}. */
  String choice(String key, List<String> choices, String fallback) {
    Optional<Node> value = map.get(key);
    if (value.isEmpty()) {
      return fallback;
    }
    Node node = value.get();
    String text = Scalars.text(node);
    if (!(node instanceof ScalarNode) || text == null || !choices.contains(text)) {
      problems.at(
          node,
          map.child(key)
              + " must be one of "
              + String.join(", ", choices)
              + "; was "
              + Scalars.describe(node));
      return fallback;
    }
    return text;
  }

  /** A whole number under a record's rule: in its range, in its words. */
  long integer(String key, Rules.Whole rule, long fallback) {
    return integer(key, rule.min(), rule.max(), rule.what(), fallback);
  }

  /** A whole number in [min, max]; {@code what} names the expectation ("a positive integer"). */
  long integer(String key, long min, long max, String what, long fallback) {
    Optional<Node> value = map.get(key);
    if (value.isEmpty()) {
      return fallback;
    }
    Node node = value.get();
    String text = Scalars.text(node);
    if (node instanceof ScalarNode && text != null && INTEGER.matcher(text).matches()) {
      try {
        long n = Long.parseLong(text);
        if (n >= min && n <= max) {
          return n;
        }
      } catch (NumberFormatException tooLong) {
        // out of range: reported below
      }
    }
    problems.at(node, map.child(key) + " must be " + what + ", was " + Scalars.describe(node));
    return fallback;
  }

  /** A finite decimal number; range checks are the caller's. */
  Double decimal(String key, String what, Double fallback) {
    Optional<Node> value = map.get(key);
    if (value.isEmpty()) {
      return fallback;
    }
    Node node = value.get();
    String text = Scalars.text(node);
    if (node instanceof ScalarNode && text != null && DECIMAL.matcher(text).matches()) {
      double d = Double.parseDouble(text);
      if (Double.isFinite(d)) {
        return d;
      }
    }
    problems.at(node, map.child(key) + " must be " + what + ", was " + Scalars.describe(node));
    return fallback;
  }

  /**
   * A percentage such as {@code 10%}, as a fraction ({@code 0.1}); range checks are the caller's.
   */
  Double percent(String key, Double fallback) {
    Optional<Node> value = map.get(key);
    if (value.isEmpty()) {
      return fallback;
    }
    Node node = value.get();
    String text = Scalars.text(node);
    if (node instanceof ScalarNode && text != null && Percentages.problem(text) == null) {
      return Percentages.parse(text);
    }
    problems.at(
        node, map.child(key) + " must be " + Percentages.FORM + ", was " + Scalars.describe(node));
    return fallback;
  }

  /** A positive duration such as {@code 30s}. */
  Duration duration(String key, Duration fallback) {
    return duration(key, fallback, false);
  }

  /** A duration of zero or more, such as {@code 0s} or {@code 30s}. */
  Duration durationOrZero(String key, Duration fallback) {
    return duration(key, fallback, true);
  }

  private Duration duration(String key, Duration fallback, boolean zeroAllowed) {
    Optional<Node> value = map.get(key);
    if (value.isEmpty()) {
      return fallback;
    }
    Node node = value.get();
    String text = Scalars.text(node);
    if (!(node instanceof ScalarNode) || text == null) {
      problems.at(
          node, map.child(key) + " must be " + Durations.FORM + ", was " + Scalars.describe(node));
      return fallback;
    }
    String problem = Durations.problem(text);
    if (problem != null) {
      problems.at(node, map.child(key) + " " + problem);
      return fallback;
    }
    Duration d = Durations.parse(text);
    String notPositive = zeroAllowed ? null : Rules.positive(d, Quotes.quote(text));
    if (notPositive != null) {
      problems.at(node, map.child(key) + " " + notPositive);
      return fallback;
    }
    return d;
  }

  /** An ISO-8601 instant such as {@code 2026-12-07T10:00:00Z}. */
  java.time.Instant instant(String key, java.time.Instant fallback) {
    Optional<Node> value = map.get(key);
    if (value.isEmpty()) {
      return fallback;
    }
    Node node = value.get();
    String text = Scalars.text(node);
    if (node instanceof ScalarNode && text != null) {
      try {
        return java.time.Instant.parse(text);
      } catch (java.time.format.DateTimeParseException e) {
        // reported below
      }
    }
    problems.at(
        node,
        map.child(key)
            + " must be an ISO-8601 instant such as 2026-12-07T10:00:00Z, was "
            + Scalars.describe(node));
    return fallback;
  }

  /** A byte size such as {@code 1MB}, between 1 byte and {@code max}. */
  long size(String key, long max, long fallback) {
    Optional<Node> value = map.get(key);
    if (value.isEmpty()) {
      return fallback;
    }
    Node node = value.get();
    String text = Scalars.text(node);
    if (!(node instanceof ScalarNode) || text == null) {
      problems.at(
          node, map.child(key) + " must be " + Sizes.FORM + ", was " + Scalars.describe(node));
      return fallback;
    }
    String problem = Sizes.problem(text, max);
    if (problem != null) {
      problems.at(node, map.child(key) + " " + problem);
      return fallback;
    }
    return Sizes.parse(text);
  }

  /**
   * Applies a record's rule to a value read from {@code key}: with no problem, the value; else the
   * problem is added at the key's value, and the fallback is returned.
   */
  <T> T check(String key, String problem, T value, T fallback) {
    if (problem == null) {
      return value;
    }
    problem(key, problem);
    return fallback;
  }

  /** Adds a problem at the value of {@code key}, which must be present. */
  void problem(String key, String messageAfterPath) {
    problems.at(map.get(key).orElseThrow(), map.child(key) + " " + messageAfterPath);
  }

  /** The value of {@code key} as messages quote it. */
  String describe(String key) {
    return Scalars.describe(map.get(key).orElseThrow());
  }

  boolean has(String key) {
    return map.get(key).isPresent();
  }
}
