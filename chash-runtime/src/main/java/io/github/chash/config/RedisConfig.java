package io.github.chash.config;

import java.util.List;

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
   * {@return the defaults: prefix {@code chash:}, the JDK codec, only the classes of the packages
   * {@code java.lang}, {@code java.util}, {@code java.time} and {@code java.math}, and values up to
   * 1 MB}
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
  static String keyPrefixProblem(String keyPrefix) {
    // onRejoin: flush deletes by this prefix; an empty one would empty the whole database
    return keyPrefix == null || keyPrefix.isEmpty()
        ? "must not be empty: onRejoin flush deletes every key with this prefix"
        : Rules.keyPrefixShape(keyPrefix);
  }
}
