package io.github.chash.ring;

/**
 * A hash function from strings to 64-bit values, applied to the string's UTF-8 bytes unless its
 * name says otherwise ({@code fnv1-32} and {@code jdk} work on UTF-16 chars, as the code they stay
 * compatible with does).
 *
 * <p>Functions with fewer than 64 bits of output return their value zero-extended (unsigned) in the
 * low bits; {@link #bits()} says how many are significant. Implementations are stateless and
 * thread-safe.
 */
public interface HashFunction {

  /** The name used in {@code chash.yaml}, for example {@code xxh3}. */
  String name();

  /** The number of significant low bits of {@link #hash}: 64 or 32. */
  int bits();

  /** Hashes the key. */
  long hash(CharSequence key);
}
