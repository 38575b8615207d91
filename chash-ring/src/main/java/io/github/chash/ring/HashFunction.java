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

  /** {@return the name used in {@code chash.yaml}, for example {@code xxh3}} */
  String name();

  /** {@return the number of significant low bits of {@link #hash}: 64 or 32} */
  int bits();

  /**
   * {@return the largest value {@link #hash} returns, unsigned: {@code 2^bits - 1} unless the
   * function covers less ({@code fnv1-32} ends in {@code Math.abs}, so its values lie in {@code [0,
   * 2^31]})} Exact ring shares are measured over the positions keys can take, so a hash whose
   * values cover only part of its bits must say so here.
   */
  default long maxValue() {
    return bits() >= 64 ? -1L : (1L << bits()) - 1;
  }

  /**
   * Hashes the key.
   *
   * @param key the key
   * @return the hash, in the low {@link #bits()} bits
   */
  long hash(CharSequence key);
}
