package io.github.chash.internal.keys;

import io.github.chash.ring.RoutingKey;

/**
 * The bytes of a routing key as remote nodes write them: those of {@link RoutingKey}, which holds
 * the one encoding (UTF-8, an unpaired surrogate in the 3-byte form WTF-8 gives it) for the ring's
 * hash and for remote keys. Stateless and thread-safe.
 */
public final class KeyBytes {
  private KeyBytes() {}

  /**
   * {@return the key's bytes, as {@link RoutingKey#bytes()}}
   *
   * @param key the key
   */
  public static byte[] of(CharSequence key) {
    if (key instanceof RoutingKey k) {
      return k.bytes();
    }
    // every remote call's key comes here: encoded straight into one array, with no routing key
    // object and no defensive copy of its bytes
    return RoutingKey.encode(key.toString());
  }

  /**
   * {@return the key whose bytes ({@link #of}) are {@code bytes[offset, offset + length)}, or
   * {@code null} when they are not such bytes (a key this library did not write)}; see {@link
   * RoutingKey#ofBytes}.
   *
   * @param bytes the bytes
   * @param offset where the key starts
   * @param length how many bytes it has
   */
  public static String toKey(byte[] bytes, int offset, int length) {
    RoutingKey key = RoutingKey.ofBytes(bytes, offset, length);
    return key == null ? null : key.text();
  }
}
