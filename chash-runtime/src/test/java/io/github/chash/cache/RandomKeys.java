package io.github.chash.cache;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Keys and values a caller may hand a cache, drawn from one seeded {@link Random}: keys of any code
 * points (NUL and other control characters, spaces, unpaired surrogates, characters beyond the BMP,
 * and the {@code :}, {@code @} and {@code #} that key layouts give a meaning), 0 to 100,000 chars
 * long, biased to the lengths where layouts change their minds (0, 1, memcached's 250 bytes with
 * and without a prefix, 1,000, 100,000); keys derived from others (one char more, one less, the
 * last one changed, a surrogate replaced by the {@code ?} UTF-8 would write), since a collision
 * shows only between keys that almost meet; and string and byte-array values of assorted sizes, a
 * few beyond memcached's 1 MB item limit. Not thread-safe.
 */
final class RandomKeys {
  /** UTF-8 lengths around memcached's 250-byte limit, bare and after {@code chash:users:}. */
  private static final int[] BYTE_EDGES = {237, 238, 239, 244, 249, 250, 251};

  private static final int[] CHAR_EDGES = {0, 1, 2, 999, 1_000, 1_001, 99_999, 100_000};

  private final Random random;

  RandomKeys(Random random) {
    this.random = random;
  }

  /** {@return a new key, or a near relative of one of {@code known}} */
  String key(List<String> known) {
    if (!known.isEmpty() && random.nextInt(4) == 0) {
      return relative(known.get(random.nextInt(known.size())));
    }
    boolean anyCodePoint = random.nextInt(3) > 0; // else printable ASCII, which memcached keeps
    int pick = random.nextInt(10);
    if (pick < 2) {
      return ofUtf8Length(BYTE_EDGES[random.nextInt(BYTE_EDGES.length)], anyCodePoint);
    }
    if (pick < 4) {
      return ofLength(CHAR_EDGES[random.nextInt(CHAR_EDGES.length)], anyCodePoint);
    }
    return ofLength(random.nextInt(40), anyCodePoint);
  }

  /** A key that differs from {@code key} by one char, or is {@code key} with UTF-8's losses. */
  private String relative(String key) {
    switch (random.nextInt(5)) {
      case 0:
        return key + (char) codePointChar();
      case 1:
        // may split a surrogate pair, leaving an unpaired high surrogate at the end
        return key.isEmpty() ? "\uD800" : key.substring(0, key.length() - 1);
      case 2:
        if (key.isEmpty()) {
          return "?";
        }
        char last = key.charAt(key.length() - 1);
        return key.substring(0, key.length() - 1) + (last == 'a' ? 'b' : 'a');
      case 3:
        // what String.getBytes(UTF_8) makes of it: distinct keys that a lossy encoding would merge
        return new String(key.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      default:
        return (random.nextBoolean() ? "@" : "#") + key;
    }
  }

  private String ofLength(int chars, boolean anyCodePoint) {
    StringBuilder out = new StringBuilder(chars);
    while (out.length() < chars) {
      int cp = anyCodePoint ? codePoint() : printableAscii();
      if (out.length() + Character.charCount(cp) > chars) {
        cp = printableAscii();
      }
      out.appendCodePoint(cp);
    }
    return out.toString();
  }

  /** A key of exactly {@code bytes} bytes in the routing key's encoding (WTF-8). */
  private String ofUtf8Length(int bytes, boolean anyCodePoint) {
    StringBuilder out = new StringBuilder(bytes);
    int length = 0;
    while (length < bytes) {
      int cp = anyCodePoint && bytes - length >= 4 ? codePoint() : printableAscii();
      out.appendCodePoint(cp);
      length += utf8Length(cp);
    }
    return out.toString();
  }

  private static int utf8Length(int cp) {
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }

  private int printableAscii() {
    return '!' + random.nextInt('~' - '!' + 1);
  }

  /** A code point of a class picked at random, so rare classes are frequent. */
  private int codePoint() {
    switch (random.nextInt(9)) {
      case 0:
        return random.nextInt(0x20); // control characters, NUL included
      case 1:
        return random.nextBoolean() ? ' ' : 0x7F;
      case 2:
        return ":@#?".charAt(random.nextInt(4));
      case 3:
        return 0x80 + random.nextInt(0x780); // two bytes in UTF-8
      case 4:
        return 0x800 + random.nextInt(0xD000 - 0x800); // three bytes, below the surrogates
      case 5:
        return 0xD800 + random.nextInt(0x800); // a surrogate, most often left unpaired
      case 6:
        return 0x10000 + random.nextInt(0x100000); // beyond the BMP: a surrogate pair
      default:
        return printableAscii();
    }
  }

  private int codePointChar() {
    int cp = codePoint();
    return Character.isBmpCodePoint(cp) ? cp : Character.highSurrogate(cp);
  }

  /** {@return a string or a byte array, of a size from empty to beyond 1 MB} */
  Object value() {
    int size = valueSize();
    if (random.nextBoolean()) {
      byte[] bytes = new byte[size];
      random.nextBytes(bytes);
      return bytes;
    }
    StringBuilder text = new StringBuilder(size);
    boolean anyCodePoint = random.nextBoolean();
    while (text.length() < size) {
      text.appendCodePoint(anyCodePoint ? codePoint() : printableAscii());
    }
    return text.toString();
  }

  private int valueSize() {
    int pick = random.nextInt(100);
    if (pick == 0) {
      return (1 << 20) + random.nextInt(1 << 18); // beyond memcached's default item limit
    }
    if (pick < 5) {
      return 100_000 + random.nextInt(200_000);
    }
    if (pick < 15) {
      return random.nextInt(3);
    }
    return random.nextInt(2_000);
  }

  /** {@return how a message shows a key: its length and its first chars, escaped} */
  static String describe(String key) {
    StringBuilder out = new StringBuilder();
    out.append(key.length()).append(" chars \"");
    for (int i = 0; i < Math.min(key.length(), 24); i++) {
      char c = key.charAt(i);
      if (c >= ' ' && c <= '~') {
        out.append(c);
      } else {
        out.append(String.format("\\u%04X", (int) c));
      }
    }
    return out.append(key.length() > 24 ? "...\"" : "\"").toString();
  }
}
