package io.github.chash.ring;

import java.util.List;

/** The hash functions chash offers, by name. All are stateless and thread-safe. */
public final class HashFunctions {
  private static final HashFunction XXH3 = new NamedHash("xxh3", 64, Hashes::xxh3, Hashes::xxh3);
  private static final HashFunction MURMUR3 =
      new NamedHash("murmur3", 64, Hashes::murmur3, Hashes::murmur3);
  private static final HashFunction FNV1A64 =
      new NamedHash("fnv1a64", 64, Hashes::fnv1a64, Hashes::fnv1a64);
  private static final HashFunction MD5 = new NamedHash("md5", 64, Hashes::md5, Hashes::md5);
  private static final HashFunction FNV1_32 =
      new NamedHash("fnv1-32", 32, 1L << 31, Hashes::fnv1_32);
  private static final HashFunction JDK = new NamedHash("jdk", 32, Hashes::jdk);
  private static final HashFunction MURMUR64A_JEDIS =
      new NamedHash(
          "murmur64a-jedis",
          64,
          key -> MurmurHash64A.hash(key, MurmurHash64A.JEDIS_SEED),
          (bytes, offset, length) ->
              MurmurHash64A.hash(bytes, offset, length, MurmurHash64A.JEDIS_SEED));
  private static final List<HashFunction> ALL = List.of(XXH3, MURMUR3, FNV1A64, MD5, FNV1_32, JDK);

  private HashFunctions() {}

  /** {@return XXH3 64-bit, seed 0, over UTF-8 (hash4j {@code Hashing.xxh3_64()}), the default} */
  public static HashFunction xxh3() {
    return XXH3;
  }

  /**
   * {@return low 64 bits ({@code h1}, as Guava's {@code HashCode.asLong()}) of MurmurHash3 x64
   * 128-bit, seed 0, over UTF-8 (hash4j {@code Hashing.murmur3_128()})}
   */
  public static HashFunction murmur3() {
    return MURMUR3;
  }

  /**
   * {@return FNV-1a 64-bit over UTF-8 (hash4j 0.31 has no FNV, so this one is written out)} Its
   * mixing is weak: on a {@code ring} of similar point names ({@code node-1#0}, {@code node-1#1},
   * ...) it skews badly (peak/mean about 2.2 at 100 nodes); prefer {@code xxh3}.
   */
  public static HashFunction fnv1a64() {
    return FNV1A64;
  }

  /**
   * {@return the first 8 bytes of MD5 over UTF-8, read little-endian (JDK {@code MessageDigest})}
   */
  public static HashFunction md5() {
    return MD5;
  }

  /**
   * {@return FNV1_32_HASH as the usual Java {@code TreeMap} ring code writes it: FNV-1 over UTF-16
   * chars, with the final shifts and {@code Math.abs}; 31 significant bits in practice,
   * zero-extended (values in {@code [0, 2^31]}, see {@link HashFunction#maxValue()})} For
   * compatibility with rings built on it.
   */
  public static HashFunction fnv1_32() {
    return FNV1_32;
  }

  /**
   * {@return {@code String.hashCode()}, zero-extended, for compatibility and to show why it skews}
   */
  public static HashFunction jdk() {
    return JDK;
  }

  /**
   * MurmurHash64A with Jedis' seed {@code 0x1234ABCD} over UTF-8 ({@code Hashing.MURMUR_HASH}), the
   * hash of {@code jedis}; not among {@link #names()}: the other algorithms cannot be given it.
   */
  static HashFunction murmur64aJedis() {
    return MURMUR64A_JEDIS;
  }

  /** {@return the config names in documentation order} */
  public static List<String> names() {
    return List.of("xxh3", "murmur3", "fnv1a64", "md5", "fnv1-32", "jdk");
  }

  /**
   * {@return the function with the given config name}
   *
   * @param name the config name, e.g. {@code xxh3}
   * @throws IllegalArgumentException naming the valid choices when there is none
   */
  public static HashFunction forName(String name) {
    for (HashFunction f : ALL) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "hash must be one of " + String.join(", ", names()) + "; was " + quote(name));
  }

  private static String quote(String s) {
    return s == null ? "null" : "\"" + s + "\"";
  }
}
