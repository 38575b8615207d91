package io.github.chash.internal.keys;

import java.nio.charset.StandardCharsets;

/**
 * The bytes of a routing key, one encoding for the ring's hash and for remote keys: UTF-8, except
 * that an unpaired surrogate, which UTF-8 cannot encode (Java writes {@code ?} for it), is written
 * in the 3-byte form generalized UTF-8 (WTF-8) gives it. Distinct keys thus always give distinct
 * bytes ({@code users:\uD800} is not {@code users:?}), and every valid key keeps its UTF-8 bytes.
 * Stateless and thread-safe.
 */
public final class KeyBytes {
  private KeyBytes() {}

  /**
   * {@return the key's bytes, as described above}
   *
   * @param key the key
   */
  public static byte[] of(CharSequence key) {
    String s = key.toString();
    if (!hasSurrogate(s)) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    byte[] out = new byte[s.length() * 3];
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        out[n++] = (byte) c;
      } else if (c < 0x800) {
        out[n++] = (byte) (0xC0 | c >> 6);
        out[n++] = (byte) (0x80 | c & 0x3F);
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        out[n++] = (byte) (0xF0 | cp >> 18);
        out[n++] = (byte) (0x80 | cp >> 12 & 0x3F);
        out[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
        out[n++] = (byte) (0x80 | cp & 0x3F);
      } else {
        // any other char, an unpaired surrogate included, in three bytes
        out[n++] = (byte) (0xE0 | c >> 12);
        out[n++] = (byte) (0x80 | c >> 6 & 0x3F);
        out[n++] = (byte) (0x80 | c & 0x3F);
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /**
   * {@return the key whose bytes ({@link #of}) are {@code bytes[offset, offset + length)}, or
   * {@code null} when they are not such bytes (a key this library did not write)} The inverse of
   * {@link #of}: an unpaired surrogate's three bytes give it back, so a key read from a server (a
   * sweep's scan) is the key that was written.
   *
   * @param bytes the bytes
   * @param offset where the key starts
   * @param length how many bytes it has
   */
  public static String toKey(byte[] bytes, int offset, int length) {
    char[] out = new char[length];
    int n = 0;
    int end = offset + length;
    for (int i = offset; i < end; ) {
      int b = bytes[i] & 0xFF;
      int extra = b < 0x80 ? 0 : b >= 0xF0 && b < 0xF8 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : -1;
      if (extra < 0 || i + extra >= end) {
        return null;
      }
      int cp = extra == 0 ? b : b & (0x3F >> extra);
      for (int k = 1; k <= extra; k++) {
        int next = bytes[i + k] & 0xFF;
        if ((next & 0xC0) != 0x80) {
          return null;
        }
        cp = cp << 6 | next & 0x3F;
      }
      i += extra + 1;
      if (cp >= 0x10000) {
        out[n++] = Character.highSurrogate(cp);
        out[n++] = Character.lowSurrogate(cp);
      } else {
        out[n++] = (char) cp;
      }
    }
    return new String(out, 0, n);
  }

  private static boolean hasSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }
}
