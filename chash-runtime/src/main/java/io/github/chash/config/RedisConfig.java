package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import java.io.ObjectInputFilter;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code redis:} block: settings shared by all Redis nodes; its constructor applies the rules
 * {@code chash.yaml} gets.
 *
 * @param keyPrefix prefix of every key this library writes (default {@code chash:}): one segment
 *     ending in {@code :} (no other colon), so no other application's prefix can start with it; not
 *     empty, since {@code onRejoin: flush} deletes every key with it
 * @param codec {@code jdk} (serialization behind an allow-list) or {@code jackson}
 * @param allowedClasses class-name patterns the JDK codec may deserialize ({@code
 *     ObjectInputFilter} syntax: {@code com.example.*}, {@code com.example.**})
 * @param maxValueSize the largest encoded value, in bytes, a node stores or returns; a larger one
 *     is refused (not sent, or not decoded), counted and logged, and never counts against the
 *     node's health
 */
public record RedisConfig(
    String keyPrefix, String codec, List<String> allowedClasses, long maxValueSize) {

  /** One class name or package pattern, optionally refused with {@code !}. */
  private static final Pattern CLASS_PATTERN =
      Pattern.compile(
          "!?[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*"
              + "(\\.[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*)*"
              + "(\\.\\*\\*|\\.\\*|\\*)?");

  /** The codecs {@code redis.codec} names. */
  public static final List<String> CODECS = List.of("jdk", "jackson");

  /** The default {@code maxValueSize}: 1 MB, as memcached's item size limit. */
  public static final long DEFAULT_MAX_VALUE_SIZE = ValueRules.DEFAULT_MAX_VALUE_SIZE;

  /** The largest {@code maxValueSize}: Redis' own limit for a string, 512 MB. */
  public static final long MAX_VALUE_SIZE_LIMIT = 512L << 20;

  /** The rules of the {@code redis:} block. */
  static final ValueRules<RedisConfig> RULES =
      new ValueRules<>(
          "redis", RedisConfig::keyPrefixProblem, MAX_VALUE_SIZE_LIMIT, RedisConfig::new);

  /**
   * Checks the values; keeps a copy of the patterns.
   *
   * @param keyPrefix prefix of every key this library writes (default {@code chash:}): one segment
   *     ending in {@code :} (no other colon), so no other application's prefix can start with it;
   *     not empty, since {@code onRejoin: flush} deletes every key with it
   * @param codec {@code jdk} (serialization behind an allow-list) or {@code jackson}
   * @param allowedClasses class-name patterns the JDK codec may deserialize ({@code
   *     ObjectInputFilter} syntax: {@code com.example.*}, {@code com.example.**})
   * @param maxValueSize the largest encoded value, in bytes, a node stores or returns; a larger one
   *     is refused (not sent, or not decoded), counted and logged, and never counts against the
   *     node's health
   * @throws IllegalArgumentException if a value breaks its rule
   */
  public RedisConfig {
    allowedClasses = RULES.check(keyPrefix, codec, allowedClasses, maxValueSize);
  }

  /**
   * Settings with the default {@code maxValueSize}.
   *
   * @param keyPrefix prefix of every key this library writes (default {@code chash:}): one segment
   *     ending in {@code :} (no other colon), so no other application's prefix can start with it;
   *     not empty, since {@code onRejoin: flush} deletes every key with it
   * @param codec {@code jdk} (serialization behind an allow-list) or {@code jackson}
   * @param allowedClasses class-name patterns the JDK codec may deserialize ({@code
   *     ObjectInputFilter} syntax: {@code com.example.*}, {@code com.example.**})
   */
  public RedisConfig(String keyPrefix, String codec, List<String> allowedClasses) {
    this(keyPrefix, codec, allowedClasses, DEFAULT_MAX_VALUE_SIZE);
  }

  /**
   * {@return the defaults: prefix {@code chash:}, the JDK codec, only {@code java.lang}, {@code
   * java.util}, {@code java.time} classes, and values up to 1 MB}
   */
  public static RedisConfig defaults() {
    return RULES.defaults();
  }

  /**
   * {@return the rule of {@code keyPrefix}: null when valid, else what is wrong}
   *
   * @param keyPrefix prefix of every key this library writes (default {@code chash:}): one segment
   *     ending in {@code :} (no other colon), so no other application's prefix can start with it;
   *     not empty, since {@code onRejoin: flush} deletes every key with it
   */
  public static String keyPrefixProblem(String keyPrefix) {
    // onRejoin: flush deletes by this prefix; an empty one would empty the whole database
    return keyPrefix == null || keyPrefix.isEmpty()
        ? "must not be empty: onRejoin flush deletes every key with this prefix"
        : Rules.keyPrefixShape(keyPrefix);
  }

  /**
   * {@return the rule of {@code redis.allow} entries: null when {@code pattern} is one valid {@code
   * ObjectInputFilter} class pattern that does not allow every class, else what is wrong}
   *
   * @param pattern the entry as written, e.g. {@code com.example.*}
   */
  public static String allowProblem(String pattern) {
    if (pattern == null) {
      return "must not be null";
    }
    String p = pattern.startsWith("!") ? pattern.substring(1) : pattern;
    if (p.equals("*") || p.equals("**") || p.endsWith("/*") || p.equals(".*")) {
      return "allows every class, was "
          + Quotes.quote(pattern)
          + "; name packages (com.example.*) or classes";
    }
    if (!CLASS_PATTERN.matcher(pattern).matches()) {
      return "must be one class pattern like com.example.* or com.example.Order, was "
          + Quotes.quote(pattern);
    }
    try {
      ObjectInputFilter.Config.createFilter(pattern);
      return null;
    } catch (IllegalArgumentException e) {
      return "is not a valid ObjectInputFilter pattern, was " + Quotes.quote(pattern);
    }
  }
}
