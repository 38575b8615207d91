package io.github.chash.config;

import java.util.List;

/**
 * The {@code redis:} block: settings shared by all Redis nodes.
 *
 * @param keyPrefix prefix of every key this library writes (default {@code chash:})
 * @param codec {@code jdk} (serialization behind an allow-list) or {@code jackson}
 * @param allowedClasses class-name patterns the JDK codec may deserialize ({@code
 *     ObjectInputFilter} syntax: {@code com.example.*}, {@code com.example.**})
 * @param maxValueSize the largest encoded value, in bytes, a node stores or returns; a larger one
 *     is refused (not sent, or not decoded), counted and logged, and never counts against the
 *     node's health
 */
public record RedisConfig(
    String keyPrefix, String codec, List<String> allowedClasses, long maxValueSize) {

  /** The default {@code maxValueSize}: 1 MB, as memcached's item size limit. */
  public static final long DEFAULT_MAX_VALUE_SIZE = 1 << 20;

  /** The largest {@code maxValueSize}: Redis' own limit for a string, 512 MB. */
  public static final long MAX_VALUE_SIZE_LIMIT = 512L << 20;

  /** Compact constructor: defensive copy. */
  public RedisConfig {
    allowedClasses = List.copyOf(allowedClasses);
  }

  /** Settings with the default {@code maxValueSize}. */
  public RedisConfig(String keyPrefix, String codec, List<String> allowedClasses) {
    this(keyPrefix, codec, allowedClasses, DEFAULT_MAX_VALUE_SIZE);
  }

  /**
   * Prefix {@code chash:}, the JDK codec, only {@code java.lang}, {@code java.util}, {@code
   * java.time} classes, and values up to 1 MB.
   */
  public static RedisConfig defaults() {
    return new RedisConfig("chash:", "jdk", List.of());
  }
}
