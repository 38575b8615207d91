package io.github.chash.ring;

import java.util.function.ToLongFunction;

/**
 * A {@link HashFunction} made of a name, a width, a largest value and a function; immutable. A
 * function over UTF-8 bytes may also give its body over a byte range, so that rings hash their
 * point names from a reused buffer instead of building a string per point, and a {@link RoutingKey}
 * is hashed from the bytes it holds.
 */
final class NamedHash implements HashFunction {
  /** A hash over {@code length} bytes of {@code bytes} from {@code offset}. */
  @FunctionalInterface
  interface BytesHash {
    long hash(byte[] bytes, int offset, int length);
  }

  private final String name;
  private final int bits;
  private final long maxValue;
  private final ToLongFunction<CharSequence> function;
  private final BytesHash utf8Bytes;

  NamedHash(String name, int bits, ToLongFunction<CharSequence> function) {
    this(name, bits, bits >= 64 ? -1L : (1L << bits) - 1, function, null);
  }

  NamedHash(String name, int bits, ToLongFunction<CharSequence> function, BytesHash utf8Bytes) {
    this(name, bits, bits >= 64 ? -1L : (1L << bits) - 1, function, utf8Bytes);
  }

  NamedHash(String name, int bits, long maxValue, ToLongFunction<CharSequence> function) {
    this(name, bits, maxValue, function, null);
  }

  private NamedHash(
      String name,
      int bits,
      long maxValue,
      ToLongFunction<CharSequence> function,
      BytesHash utf8Bytes) {
    this.name = name;
    this.bits = bits;
    this.maxValue = maxValue;
    this.function = function;
    this.utf8Bytes = utf8Bytes;
  }

  /**
   * The same function over a key's UTF-8 bytes given as a byte range, or null when the function
   * does not hash UTF-8 bytes ({@code fnv1-32}, {@code jdk}).
   */
  BytesHash utf8Bytes() {
    return utf8Bytes;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int bits() {
    return bits;
  }

  @Override
  public long maxValue() {
    return maxValue;
  }

  @Override
  public long hash(CharSequence key) {
    // a String goes straight to the function: with the other test first, the JIT inlined less and
    // String lookups were measurably slower (RingLookupBenchmark has the current figures)
    return key instanceof String ? function.applyAsLong(key) : hashOther(key);
  }

  private long hashOther(CharSequence key) {
    if (utf8Bytes != null && key instanceof RoutingKey routingKey) {
      byte[] bytes = routingKey.bytesInPlace(); // the key's UTF-8 bytes (WTF-8), made once
      return utf8Bytes.hash(bytes, 0, bytes.length);
    }
    return function.applyAsLong(key);
  }

  @Override
  public String toString() {
    return name;
  }
}
