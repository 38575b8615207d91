package io.github.chash.config;

import java.util.List;

/**
 * The {@code redis:} block: settings shared by all Redis nodes.
 *
 * @param keyPrefix prefix of every key this library writes (default {@code chash:})
 * @param codec {@code jdk} (serialization behind an allow-list) or {@code jackson}
 * @param allowedClasses class-name patterns the JDK codec may deserialize ({@code
 *     ObjectInputFilter} syntax: {@code com.example.*}, {@code com.example.**})
 */
public record RedisConfig(String keyPrefix, String codec, List<String> allowedClasses) {

  /** Compact constructor: defensive copy. */
  public RedisConfig {
    allowedClasses = List.copyOf(allowedClasses);
  }

  /**
   * Prefix {@code chash:}, the JDK codec, and only {@code java.lang}, {@code java.util}, {@code
   * java.time} classes.
   */
  public static RedisConfig defaults() {
    return new RedisConfig("chash:", "jdk", List.of());
  }
}
