package io.github.chash.ring;

/**
 * Austin Appleby's MurmurHash64A (MurmurHash2, 64-bit, for 64-bit platforms), as Jedis' {@code
 * MurmurHash.hash64A} computes it: little-endian 8-byte blocks, the tail read little-endian, the
 * seed sign-extended. hash4j 0.31 offers MurmurHash3 only, so this one is written out; the unit
 * test pins it to reference values of the C original and of Jedis. Stateless and thread-safe.
 */
final class MurmurHash64A {
  /** The seed of Jedis' {@code Hashing.MURMUR_HASH}. */
  static final int JEDIS_SEED = 0x1234ABCD;

  private static final long M = 0xc6a4a7935bd1e995L;
  private static final int R = 47;

  private MurmurHash64A() {}

  /** The hash of {@code length} bytes of {@code data} from {@code offset}. */
  static long hash(byte[] data, int offset, int length, int seed) {
    long h = seed ^ (length * M);
    int blocks = length >>> 3;
    for (int b = 0; b < blocks; b++) {
      h = mixBlock(h, Hashes.littleEndian(data, offset + 8 * b, 8));
    }
    int tail = length & 7;
    if (tail > 0) {
      h = mixTail(h, Hashes.littleEndian(data, offset + 8 * blocks, tail));
    }
    return finish(h);
  }

  /**
   * The hash of the UTF-8 bytes of {@code key}; an all-ASCII key is read in place, without encoding
   * it.
   */
  static long hash(CharSequence key, int seed) {
    if (!Hashes.isAscii(key)) {
      byte[] bytes = Hashes.utf8(key);
      return hash(bytes, 0, bytes.length, seed);
    }
    int length = key.length();
    long h = seed ^ (length * M);
    int blocks = length >>> 3;
    for (int b = 0; b < blocks; b++) {
      h = mixBlock(h, asciiLittleEndian(key, 8 * b, 8));
    }
    int tail = length & 7;
    if (tail > 0) {
      h = mixTail(h, asciiLittleEndian(key, 8 * blocks, tail));
    }
    return finish(h);
  }

  private static long asciiLittleEndian(CharSequence key, int from, int count) {
    long v = 0;
    for (int i = from + count - 1; i >= from; i--) {
      v = (v << 8) | key.charAt(i);
    }
    return v;
  }

  private static long mixBlock(long h, long k) {
    k *= M;
    k ^= k >>> R;
    k *= M;
    h ^= k;
    return h * M;
  }

  private static long mixTail(long h, long tail) {
    h ^= tail;
    return h * M;
  }

  private static long finish(long h) {
    h ^= h >>> R;
    h *= M;
    h ^= h >>> R;
    return h;
  }
}
