package io.github.chash.memcached;

import io.github.chash.internal.keys.KeyBytes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The memcached keys of a node: a server key is at most 250 bytes of printable ASCII without spaces
 * (memcached's rule), so a routing key that is such text, short enough and not starting with
 * {@code @} or {@code #}, is used as it is after the prefix; any other one becomes {@code prefix +
 * "#" +} the base64url SHA-256 of its {@link KeyBytes}. Keys under {@code prefix + "@"} are the
 * node's generation counters, never data. Two routing keys may thus share a server key only by a
 * SHA-256 collision, and even then the value's envelope names its full key, so one key is never
 * served another's value. Stateless and thread-safe.
 */
final class MemcachedKeys {
  /** memcached's limit for a key, in bytes. */
  static final int MAX_KEY_BYTES = 250;

  private final String prefix;

  MemcachedKeys(String prefix) {
    this.prefix = prefix;
  }

  /** {@return the prefix of every key this node writes for prefixed caches} */
  String prefix() {
    return prefix;
  }

  /** The server key of a routing key. */
  String dataKey(String routingKey) {
    if (routingKey.length() + prefix.length() <= MAX_KEY_BYTES
        && !routingKey.isEmpty()
        && routingKey.charAt(0) != '@'
        && routingKey.charAt(0) != '#'
        && isSafe(routingKey)) {
      return prefix.concat(routingKey);
    }
    return prefix + "#" + hash(KeyBytes.of(routingKey));
  }

  /** The key of the counter that {@link MemcachedCacheNode#clear()} replaces. */
  String globalGenerationKey() {
    return prefix + "@all";
  }

  /**
   * The key of the counter of one namespace, the routing key up to and including its first {@code
   * :} (a cache's name and the colon, since cache names have none).
   */
  String namespaceGenerationKey(String namespace) {
    if (namespace.length() + prefix.length() + 4 <= MAX_KEY_BYTES && isSafe(namespace)) {
      return prefix + "@ns:" + namespace;
    }
    return prefix + "@ns#" + hash(KeyBytes.of(namespace));
  }

  /** The namespace of a routing key: up to and including the first {@code :}, or all of it. */
  static String namespace(String routingKey) {
    int colon = routingKey.indexOf(':');
    return colon < 0 ? routingKey : routingKey.substring(0, colon + 1);
  }

  /** Printable ASCII, no space: what memcached's text protocol accepts in a key. */
  static boolean isSafe(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c <= ' ' || c > '~') {
        return false;
      }
    }
    return true;
  }

  private static String hash(byte[] bytes) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The routing key's bytes as the envelope stores them. */
  static byte[] fullKey(String routingKey) {
    return KeyBytes.of(routingKey);
  }

  @Override
  public String toString() {
    return "MemcachedKeys[" + prefix + "]";
  }
}
