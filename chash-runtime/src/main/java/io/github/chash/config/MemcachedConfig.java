package io.github.chash.config;

import io.github.chash.internal.text.Quotes;
import java.util.List;

/**
 * The {@code memcached:} block: settings shared by all memcached nodes, as {@code redis:} is for
 * Redis nodes (the command timeout is {@code failover.timeout} for both); its constructor applies
 * the rules {@code chash.yaml} gets.
 *
 * @param keyPrefix prefix of every key this library writes (default {@code chash:}): 1 to {@value
 *     #MAX_KEY_PREFIX_LENGTH} printable ASCII characters without spaces, since memcached keys are
 *     at most 250 bytes with no spaces or control characters; one segment ending in {@code :} (no
 *     other colon), so no other application's prefix can start with it
 * @param codec {@code jdk} (serialization behind an allow-list) or {@code jackson}
 * @param allowedClasses class-name patterns the JDK codec may deserialize, as {@code redis.allow}
 * @param maxValueSize the largest encoded value, in bytes, a node stores or returns; a larger one
 *     is refused (not sent, or not decoded), counted and logged, and never counts against the
 *     node's health. Memcached's own item limit ({@code -I}) is 1 MB by default and includes the
 *     key and the node's small header, so a value close to 1 MB needs a server started with a
 *     larger {@code -I}; a server that refuses an item as too large is a refusal too, not a failure
 */
public record MemcachedConfig(
    String keyPrefix, String codec, List<String> allowedClasses, long maxValueSize) {

  /** The longest {@code keyPrefix}: it leaves room for a hashed key within 250 bytes. */
  public static final int MAX_KEY_PREFIX_LENGTH = 64;

  /** The default {@code maxValueSize}: 1 MB, memcached's default item size limit. */
  public static final long DEFAULT_MAX_VALUE_SIZE = ValueRules.DEFAULT_MAX_VALUE_SIZE;

  /** The largest {@code maxValueSize}: memcached's largest {@code -I}, 1 GB. */
  public static final long MAX_VALUE_SIZE_LIMIT = 1L << 30;

  /** The rules of the {@code memcached:} block. */
  static final ValueRules<MemcachedConfig> RULES =
      new ValueRules<>(
          "memcached",
          MemcachedConfig::keyPrefixProblem,
          MAX_VALUE_SIZE_LIMIT,
          MemcachedConfig::new);

  /**
   * Checks the values; keeps a copy of the patterns.
   *
   * @param keyPrefix prefix of every key this library writes
   * @param codec {@code jdk} or {@code jackson}
   * @param allowedClasses class-name patterns the JDK codec may deserialize
   * @param maxValueSize the largest encoded value, in bytes, a node stores or returns
   * @throws IllegalArgumentException if a value breaks its rule
   */
  public MemcachedConfig {
    allowedClasses = RULES.check(keyPrefix, codec, allowedClasses, maxValueSize);
  }

  /**
   * {@return the defaults: prefix {@code chash:}, the JDK codec with the built-in allow-list,
   * values up to 1 MB}
   */
  public static MemcachedConfig defaults() {
    return RULES.defaults();
  }

  /**
   * {@return the rule of {@code keyPrefix}: null when valid, else what is wrong}
   *
   * @param keyPrefix the prefix
   */
  static String keyPrefixProblem(String keyPrefix) {
    if (keyPrefix == null || keyPrefix.isEmpty()) {
      return "must not be empty: it keeps this library's keys apart from other applications'";
    }
    if (keyPrefix.length() > MAX_KEY_PREFIX_LENGTH) {
      return "must be at most "
          + MAX_KEY_PREFIX_LENGTH
          + " characters (memcached keys are at most 250 bytes), was "
          + keyPrefix.length();
    }
    for (int i = 0; i < keyPrefix.length(); i++) {
      char c = keyPrefix.charAt(i);
      if (c <= ' ' || c > '~') {
        return "must be printable ASCII without spaces (a memcached key cannot hold spaces or"
            + " control characters), was "
            + Quotes.quote(keyPrefix);
      }
    }
    return Rules.keyPrefixShape(keyPrefix);
  }
}
