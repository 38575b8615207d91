package io.github.chash.ring;

import java.util.List;

/** The hash functions chash offers, by name. All are stateless and thread-safe. */
public final class HashFunctions {
  private HashFunctions() {}

  /** XXH3 64-bit over UTF-8 (hash4j), the default. */
  public static HashFunction xxh3() {
    throw new UnsupportedOperationException("TODO");
  }

  /** Low 64 bits of Murmur3 x64 128-bit, seed 0, over UTF-8 (hash4j). */
  public static HashFunction murmur3() {
    throw new UnsupportedOperationException("TODO");
  }

  /** FNV-1a 64-bit over UTF-8. */
  public static HashFunction fnv1a64() {
    throw new UnsupportedOperationException("TODO");
  }

  /** First 8 bytes of MD5 over UTF-8, little-endian. */
  public static HashFunction md5() {
    throw new UnsupportedOperationException("TODO");
  }

  /** The seeds' FNV1_32_HASH over UTF-16 chars, with the final shifts and {@code Math.abs}. */
  public static HashFunction fnv1_32() {
    throw new UnsupportedOperationException("TODO");
  }

  /** {@code String.hashCode()}, for compatibility and to show why it skews. */
  public static HashFunction jdk() {
    throw new UnsupportedOperationException("TODO");
  }

  /** The config names in documentation order. */
  public static List<String> names() {
    return List.of("xxh3", "murmur3", "fnv1a64", "md5", "fnv1-32", "jdk");
  }

  /**
   * Returns the function with the given config name.
   *
   * @throws IllegalArgumentException naming the valid choices when there is none
   */
  public static HashFunction forName(String name) {
    throw new UnsupportedOperationException("TODO");
  }
}
