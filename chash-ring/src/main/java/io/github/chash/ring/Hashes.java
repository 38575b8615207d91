package io.github.chash.ring;

import com.dynatrace.hash4j.hashing.ByteAccess;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The bodies of the built-in hash functions, and the helpers the algorithms share.
 *
 * <p>The UTF-8 functions never encode an all-ASCII key (the common case): its UTF-8 bytes are its
 * chars, so they are read in place ({@link AsciiChars}) or copied into a per-thread scratch buffer
 * (MD5). Other keys are encoded with {@code String.getBytes(UTF_8)}; the value is the same either
 * way.
 */
final class Hashes {
  private static final Hasher64 XXH3 = Hashing.xxh3_64();
  // hash4j's 64-bit view of murmur3_128 is the low half (h1), as Guava's HashCode.asLong().
  private static final Hasher64 MURMUR3 = Hashing.murmur3_128();
  private static final ByteAccess<CharSequence> ASCII = new AsciiChars();
  private static final MessageDigest MD5_PROTOTYPE = md5Prototype();
  private static final ThreadLocal<Md5> MD5 = ThreadLocal.withInitial(Md5::new);

  private Hashes() {}

  /** The key's UTF-8 bytes; an unpaired surrogate keeps its own bytes ({@link RoutingKey}). */
  static byte[] utf8(CharSequence key) {
    return key instanceof RoutingKey k ? k.bytesInPlace() : RoutingKey.encode(key.toString());
  }

  /** Whether every char is below 0x80, so that the UTF-8 bytes are the chars themselves. */
  static boolean isAscii(CharSequence key) {
    for (int i = 0, n = key.length(); i < n; i++) {
      if (key.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  static long xxh3(CharSequence key) {
    return isAscii(key)
        ? XXH3.hashBytesToLong(key, 0, key.length(), ASCII)
        : XXH3.hashBytesToLong(utf8(key));
  }

  static long xxh3(byte[] bytes, int offset, int length) {
    return XXH3.hashBytesToLong(bytes, offset, length);
  }

  /** A strong 64-bit hash of two longs, used to mix node and key hashes. */
  static long mix(long a, long b) {
    return XXH3.hashLongLongToLong(a, b);
  }

  static long murmur3(CharSequence key) {
    return isAscii(key)
        ? MURMUR3.hashBytesToLong(key, 0, key.length(), ASCII)
        : MURMUR3.hashBytesToLong(utf8(key));
  }

  static long murmur3(byte[] bytes, int offset, int length) {
    return MURMUR3.hashBytesToLong(bytes, offset, length);
  }

  // hash4j 0.31.0 has no FNV; FNV-1a is four lines (http://www.isthe.com/chongo/tech/comp/fnv/).
  static long fnv1a64(CharSequence key) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0, n = key.length(); i < n; i++) {
      char c = key.charAt(i);
      if (c >= 0x80) {
        return fnv1a64(utf8(key));
      }
      h ^= c;
      h *= 0x100000001b3L;
    }
    return h;
  }

  private static long fnv1a64(byte[] bytes) {
    return fnv1a64(bytes, 0, bytes.length);
  }

  static long fnv1a64(byte[] bytes, int offset, int length) {
    long h = 0xcbf29ce484222325L;
    for (int i = offset, end = offset + length; i < end; i++) {
      h ^= bytes[i] & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** The 16-byte MD5 digest of the key's UTF-8 bytes, in a new array. */
  static byte[] md5Digest(CharSequence key) {
    Md5 md5 = MD5.get();
    md5.digest(key);
    return md5.out.clone();
  }

  /** The first 8 bytes of MD5 of the key's UTF-8 bytes, little-endian; allocation-free. */
  static long md5(CharSequence key) {
    Md5 md5 = MD5.get();
    md5.digest(key);
    return littleEndian(md5.out, 0, 8);
  }

  /** The first 8 bytes of MD5 of a byte range, little-endian; allocation-free. */
  static long md5(byte[] bytes, int offset, int length) {
    Md5 md5 = MD5.get();
    md5.digest(bytes, offset, length);
    return littleEndian(md5.out, 0, 8);
  }

  /**
   * Writes the 16-byte MD5 digest of a byte range into {@code out} from {@code outOffset};
   * allocation-free.
   */
  static void md5Digest(byte[] bytes, int offset, int length, byte[] out, int outOffset) {
    Md5 md5 = MD5.get();
    md5.digest(bytes, offset, length);
    System.arraycopy(md5.out, 0, out, outOffset, 16);
  }

  /**
   * Writes the UTF-8 bytes of {@code prefix} followed by the decimal digits of {@code i} into
   * {@code buffer}, which must hold them (the prefix's length plus 10); returns the length. The
   * bytes are those of {@code (prefix + i).getBytes(UTF_8)} when {@code prefix} is given as its own
   * UTF-8 bytes: digits are ASCII, and UTF-8 encodes a string piece by piece.
   */
  static int appendDecimal(byte[] buffer, int prefixLength, int i) {
    int length = prefixLength + decimalDigits(i);
    int at = length;
    int v = i;
    do {
      buffer[--at] = (byte) ('0' + v % 10);
      v /= 10;
    } while (v != 0);
    return length;
  }

  private static int decimalDigits(int i) {
    int digits = 1;
    for (long bound = 10; bound <= i; bound *= 10) {
      digits++;
    }
    return digits;
  }

  static long littleEndian(byte[] bytes, int from, int length) {
    long h = 0;
    for (int i = from + length - 1; i >= from; i--) {
      h = (h << 8) | (bytes[i] & 0xff);
    }
    return h;
  }

  // FNV1_32_HASH as the usual TreeMap ring code has it, verbatim: FNV-1 order (xor, then multiply)
  // over UTF-16 chars, an avalanche of shifts, then Math.abs (which leaves Integer.MIN_VALUE
  // negative, as that code does).
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

  /**
   * How many ring positions keys hashed by the function can take: {@code 2^32} for 64-bit hashes
   * (their top 32 bits), {@code maxValue + 1} for narrower ones.
   */
  static long positionCount(HashFunction function) {
    return function.bits() == 64 ? 1L << 32 : Math.min(function.maxValue(), 0xffffffffL) + 1;
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

  /** A thread's MD5: the digest, a scratch buffer for ASCII chars and the output bytes. */
  private static final class Md5 {
    private final MessageDigest md = cloneMd5();
    private final byte[] chunk = new byte[64];
    private final byte[] out = new byte[16];

    void digest(CharSequence key) {
      md.reset();
      int n = key.length();
      if (isAscii(key)) {
        for (int from = 0; from < n; from += chunk.length) {
          int length = Math.min(chunk.length, n - from);
          for (int i = 0; i < length; i++) {
            chunk[i] = (byte) key.charAt(from + i);
          }
          md.update(chunk, 0, length);
        }
      } else {
        md.update(utf8(key));
      }
      finish();
    }

    void digest(byte[] bytes, int offset, int length) {
      md.reset();
      md.update(bytes, offset, length);
      finish();
    }

    private void finish() {
      try {
        md.digest(out, 0, out.length);
      } catch (DigestException e) {
        throw new IllegalStateException("md5 digest does not fit 16 bytes", e);
      }
    }
  }

  /**
   * The chars of an all-ASCII key as its UTF-8 bytes, read in place; multi-byte reads are
   * little-endian, as hash4j expects.
   */
  private static final class AsciiChars implements ByteAccess<CharSequence> {
    @Override
    public byte getByte(CharSequence s, long index) {
      return (byte) s.charAt((int) index);
    }

    @Override
    public int getInt(CharSequence s, long index) {
      int i = (int) index;
      return s.charAt(i) | s.charAt(i + 1) << 8 | s.charAt(i + 2) << 16 | s.charAt(i + 3) << 24;
    }

    @Override
    public long getLong(CharSequence s, long index) {
      return (getInt(s, index) & 0xffffffffL) | (long) getInt(s, index + 4) << 32;
    }

    @Override
    public void copyToByteArray(CharSequence s, long from, byte[] to, int offset, int length) {
      int start = (int) from;
      for (int i = 0; i < length; i++) {
        to[offset + i] = (byte) s.charAt(start + i);
      }
    }
  }
}
