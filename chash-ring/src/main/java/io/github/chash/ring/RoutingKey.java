package io.github.chash.ring;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A routing key: the text a ring places (for a cache, its prefix and the key's canonical form,
 * {@code users:42}), held with its bytes and their hash, each computed once. A cache builds one per
 * call and hands it through the whole operation: the ring hashes its bytes in place, and a local
 * node keeps its entries under it, so a hit builds no string. Immutable and thread-safe.
 *
 * <p>The bytes are the key's UTF-8 bytes, except that an unpaired surrogate, which UTF-8 cannot
 * encode (Java writes {@code ?} for it), takes the 3-byte form generalized UTF-8 (WTF-8) gives it:
 * distinct texts always give distinct bytes ({@code users:\uD800} is not {@code users:?}), and
 * every valid text keeps its UTF-8 bytes. The ring's hash functions over UTF-8 and remote nodes'
 * keys use these bytes ({@link #bytes()}).
 *
 * <p>Two routing keys are {@link #equals equal} exactly when their texts are: the bytes encode the
 * text one to one, so comparing them compares the texts. A routing key never equals a {@code
 * String}, not even its own text ({@link #text()} gives that).
 */
public final class RoutingKey implements CharSequence {
  private final byte[] bytes;
  private final int hash;

  /** Whether every byte, hence every char, is below 0x80: then char {@code i} is byte {@code i}. */
  private final boolean ascii;

  /**
   * The text, once built: a key made from its bytes (a cache's key made from a prefix and a number)
   * builds it only when asked, which a local hit never does. Racy but safe, as {@code String.hash}:
   * every thread that builds it builds an equal string.
   */
  private String text;

  private RoutingKey(byte[] bytes, int hash, boolean ascii, String text) {
    this.bytes = bytes;
    this.hash = hash;
    this.ascii = ascii;
    this.text = text;
  }

  /**
   * {@return the routing key of a text}
   *
   * @param text the routing key's text
   */
  public static RoutingKey of(String text) {
    int n = text.length();
    byte[] out = new byte[n];
    int h = 0;
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        byte[] encoded = encode(text);
        return new RoutingKey(encoded, hash(0, encoded, 0), false, text);
      }
      out[i] = (byte) c;
      h = 31 * h + c;
    }
    return new RoutingKey(out, h, true, text);
  }

  /**
   * {@return the routing key of {@code prefix + key}, made without building that string}
   *
   * @param prefix the start of the text, such as a cache's {@code users:}
   * @param key the rest of the text
   */
  public static RoutingKey of(String prefix, String key) {
    return of(prefix).concat(key);
  }

  /**
   * {@return the routing key whose bytes ({@link #bytes()}) are {@code bytes[offset, offset +
   * length)}, or {@code null} when they are not such bytes (a key this library did not write)} An
   * unpaired surrogate's three bytes give it back, so a key read from a server (a sweep's scan) is
   * the key that was written.
   *
   * @param bytes the bytes
   * @param offset where the key starts
   * @param length how many bytes it has
   */
  public static RoutingKey ofBytes(byte[] bytes, int offset, int length) {
    String text = decode(bytes, offset, length);
    // encoded again, not copied: a decodable range need not be the canonical encoding (an
    // overlong form, a pair written as two surrogates), and equal keys must hold equal bytes
    return text == null ? null : of(text);
  }

  /**
   * {@return the routing key of this text followed by {@code suffix}} Copies this key's bytes and
   * encodes only the suffix (a cache keeps its prefix as a routing key); the suffix is read, not
   * kept, so a reused buffer may hold it.
   *
   * @param suffix the rest of the text
   */
  public RoutingKey concat(CharSequence suffix) {
    int n = bytes.length;
    int m = suffix.length();
    byte[] out = Arrays.copyOf(bytes, n + m);
    int h = hash;
    for (int i = 0; i < m; i++) {
      char c = suffix.charAt(i);
      if (c >= 0x80) {
        // also a low surrogate that pairs with a high one ending this text: encoded as a whole
        return of(text().concat(suffix.toString()));
      }
      out[n + i] = (byte) c;
      h = 31 * h + c;
    }
    return new RoutingKey(out, h, ascii, null);
  }

  /**
   * {@return the routing key of this text followed by the decimal form of {@code number}, as {@code
   * Long.toString} writes it} Builds no string.
   *
   * @param number the number
   */
  public RoutingKey concat(long number) {
    int n = bytes.length;
    int digits = decimalLength(number);
    byte[] out = Arrays.copyOf(bytes, n + digits);
    int end = n + digits;
    int at = end;
    // the digits from the last one, as negative numbers (Long.MIN_VALUE has no positive)
    long v = number < 0 ? number : -number;
    do {
      out[--at] = (byte) ('0' - v % 10);
      v /= 10;
    } while (v != 0);
    if (number < 0) {
      out[--at] = '-';
    }
    return new RoutingKey(out, hash(hash, out, n), ascii, null);
  }

  /** {@code Long.toString(value).length()}. */
  static int decimalLength(long value) {
    int length = value < 0 ? 2 : 1;
    for (long v = value / 10; v != 0; v /= 10) { // toward zero: no overflow at Long.MIN_VALUE
      length++;
    }
    return length;
  }

  /** {@return the text} */
  public String text() {
    String t = text;
    if (t == null) {
      t = ascii ? new String(bytes, StandardCharsets.ISO_8859_1) : decode(bytes, 0, bytes.length);
      text = t;
    }
    return t;
  }

  /** {@return a copy of the key's bytes (see the class)} */
  public byte[] bytes() {
    return bytes.clone();
  }

  /**
   * {@return whether the text starts with {@code prefix}} Builds no text when it is all ASCII.
   *
   * @param prefix the prefix
   */
  public boolean startsWith(String prefix) {
    if (!ascii) {
      return text().startsWith(prefix);
    }
    int n = prefix.length();
    if (n > bytes.length) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (prefix.charAt(i) != bytes[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The ring's hash over UTF-8 reads the bytes in place: read them during the call, never write or
   * keep them.
   */
  byte[] bytesInPlace() {
    return bytes;
  }

  @Override
  public int length() {
    return ascii ? bytes.length : text().length();
  }

  @Override
  public char charAt(int index) {
    if (ascii) {
      return (char) bytes[java.util.Objects.checkIndex(index, bytes.length)];
    }
    return text().charAt(index);
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return text().subSequence(start, end);
  }

  /** {@return whether {@code o} is a routing key with the same text} */
  @Override
  public boolean equals(Object o) {
    return o == this
        || (o instanceof RoutingKey k && k.hash == hash && Arrays.equals(k.bytes, bytes));
  }

  /** {@return the hash of the key's bytes, computed when the key was made} */
  @Override
  public int hashCode() {
    return hash;
  }

  /** {@return the text} */
  @Override
  public String toString() {
    return text();
  }

  /** {@code h} continued over {@code bytes[from, length)}, 31 times per byte as String's. */
  private static int hash(int h, byte[] bytes, int from) {
    for (int i = from; i < bytes.length; i++) {
      h = 31 * h + bytes[i];
    }
    return h;
  }

  /**
   * {@return the bytes of a text (see the class), as {@code of(text).bytes()} gives them but
   * without the routing key: for a remote node writing a key it holds as text}
   *
   * @param s the text
   */
  public static byte[] encode(String s) {
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
    return Arrays.copyOf(out, n);
  }

  /** The text of {@link #encode}d bytes, or null when they are not such bytes. */
  private static String decode(byte[] bytes, int offset, int length) {
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
