package io.github.chash.ring;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The bodies of the built-in hash functions, and the helpers the algorithms share. */
final class Hashes {
  private static final Hasher64 XXH3 = Hashing.xxh3_64();
  // hash4j's 64-bit view of murmur3_128 is the low half (h1), as Guava's HashCode.asLong().
  private static final Hasher64 MURMUR3 = Hashing.murmur3_128();
  private static final MessageDigest MD5_PROTOTYPE = md5Prototype();
  private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(Hashes::cloneMd5);

  private Hashes() {}

  static byte[] utf8(CharSequence key) {
    return key.toString().getBytes(StandardCharsets.UTF_8);
  }

  static long xxh3(CharSequence key) {
    return XXH3.hashBytesToLong(utf8(key));
  }

  /** A strong 64-bit hash of two longs, used to mix node and key hashes. */
  static long mix(long a, long b) {
    return XXH3.hashLongLongToLong(a, b);
  }

  static long murmur3(CharSequence key) {
    return MURMUR3.hashBytesToLong(utf8(key));
  }

  // hash4j 0.31.0 has no FNV; FNV-1a is four lines (http://www.isthe.com/chongo/tech/comp/fnv/).
  static long fnv1a64(CharSequence key) {
    long h = 0xcbf29ce484222325L;
    for (byte b : utf8(key)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  static byte[] md5Digest(CharSequence key) {
    MessageDigest md = MD5.get();
    md.reset();
    return md.digest(utf8(key));
  }

  /** The first 8 bytes of MD5, little-endian. */
  static long md5(CharSequence key) {
    return littleEndian(md5Digest(key), 0, 8);
  }

  static long littleEndian(byte[] bytes, int from, int length) {
    long h = 0;
    for (int i = from + length - 1; i >= from; i--) {
      h = (h << 8) | (bytes[i] & 0xff);
    }
    return h;
  }

  // The seeds' FNV1_32_HASH verbatim: FNV-1 order (xor, then multiply) over UTF-16 chars, an
  // avalanche of shifts, then Math.abs (which leaves Integer.MIN_VALUE negative, as the seeds do).
  static long fnv1_32(CharSequence key) {
    final int p = 16777619;
    int hash = (int) 2166136261L;
    for (int i = 0; i < key.length(); i++) {
      hash = (hash ^ key.charAt(i)) * p;
    }
    hash += hash << 13;
    hash ^= hash >> 7;
    hash += hash << 3;
    hash ^= hash >> 17;
    hash += hash << 5;
    if (hash < 0) {
      hash = Math.abs(hash);
    }
    return hash & 0xffffffffL;
  }

  static long jdk(CharSequence key) {
    return key.toString().hashCode() & 0xffffffffL;
  }

  /** The 32 bits of a hash a ring position is taken from: the top half of 64-bit hashes. */
  static int top32(HashFunction function, long hash) {
    return function.bits() == 64 ? (int) (hash >>> 32) : (int) hash;
  }

  private static MessageDigest md5Prototype() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide MD5", e);
    }
  }

  private static MessageDigest cloneMd5() {
    try {
      return (MessageDigest) MD5_PROTOTYPE.clone();
    } catch (CloneNotSupportedException e) {
      return md5Prototype();
    }
  }
}
