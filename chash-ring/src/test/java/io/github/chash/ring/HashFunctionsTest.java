package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.dynatrace.hash4j.hashing.Hashing;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Random;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HashFunctionsTest {

  /**
   * A String, another CharSequence and the key's bytes give one hash (a RoutingKey's bytes are
   * RoutingKeyTest's).
   */
  @Test
  void everyUtf8Function_hashesAnyCharSequenceAsItsBytes() {
    for (String name : HashFunctions.names()) {
      NamedHash hash = (NamedHash) HashFunctions.forName(name);
      if (hash.utf8Bytes() == null) {
        continue;
      }
      for (String key :
          new String[] {
            "",
            "users:42",
            "x".repeat(300),
            "users:ünï",
            "users:\u0141" // its low byte is ASCII 'A'; its UTF-8 bytes are not
          }) {
        byte[] bytes = RoutingKey.of(key).bytes();
        assertThat(hash.hash(key))
            .as(name + " of " + key.length() + " chars")
            .isEqualTo(hash.utf8Bytes().hash(bytes, 0, bytes.length))
            .isEqualTo(hash.hash(new StringBuilder(key)));
      }
    }
  }

  @Test
  void xxh3_matchesPublishedVectors() {
    // XXH3_64bits, seed 0: xxHash's sanity vectors for "" and the reference values for "a", "abc".
    HashFunction f = HashFunctions.xxh3();
    assertThat(f.hash("")).isEqualTo(0x2D06800538D394C2L);
    assertThat(f.hash("a")).isEqualTo(0xE6C632B61E964E1FL);
    assertThat(f.hash("abc")).isEqualTo(0x78AF5F94892F3950L);
    assertThat(f.bits()).isEqualTo(64);
  }

  @Test
  void murmur3_isLowHalfOfX64_128() {
    // MurmurHash3_x64_128 seed 0, h1 (Guava's and Elasticsearch's published known values).
    HashFunction f = HashFunctions.murmur3();
    assertThat(f.hash("")).isZero();
    assertThat(f.hash("hell")).isEqualTo(0x629942693e10f867L);
    assertThat(f.hash("The quick brown fox jumps over the lazy dog"))
        .isEqualTo(0xe34bbc7bbc071b6cL);
    assertThat(f.hash("The quick brown fox jumps over the lazy cog"))
        .isEqualTo(0x658ca970ff85269aL);
  }

  @Test
  void fnv1a64_matchesFnvReferenceVectors() {
    // From the FNV reference test suite (test_fnv.c): offset basis, "a", "foobar".
    HashFunction f = HashFunctions.fnv1a64();
    assertThat(f.hash("")).isEqualTo(0xcbf29ce484222325L);
    assertThat(f.hash("a")).isEqualTo(0xaf63dc4c8601ec8cL);
    assertThat(f.hash("foobar")).isEqualTo(0x85944171f73967e8L);
  }

  @Test
  void md5_isFirstEightDigestBytesLittleEndian() {
    // RFC 1321 appendix A.5: MD5("") = d41d8cd98f00b204..., MD5("abc") = 900150983cd24fb0...
    HashFunction f = HashFunctions.md5();
    assertThat(f.hash("")).isEqualTo(0x04b2008fd98c1dd4L);
    assertThat(f.hash("abc")).isEqualTo(0xb04fd23c98500190L);
  }

  @Test
  void fnv1_32_matchesTheSeedsValues() {
    HashFunction f = HashFunctions.fnv1_32();
    assertThat(f.hash("太阳")).isEqualTo(1977106057L);
    assertThat(f.hash("月亮")).isEqualTo(1132637661L);
    assertThat(f.hash("星星")).isEqualTo(880019273L);
    assertThat(f.hash("192.168.0.0:111")).isEqualTo(575774686L);
    assertThat(f.bits()).isEqualTo(32);
  }

  @Test
  void jdk_isStringHashCodeUnsigned() {
    HashFunction f = HashFunctions.jdk();
    assertThat(f.hash("abc")).isEqualTo(96354L);
    assertThat(f.hash("polygenelubricants")).isEqualTo(0x80000000L); // hashCode MIN_VALUE
    assertThat(f.hash("")).isZero();
  }

  @Test
  void utf8_isHashedNotUtf16() {
    // "é" is c3 a9 in UTF-8; FNV-1a over those two bytes.
    long h = 0xcbf29ce484222325L;
    for (int b : new int[] {0xc3, 0xa9}) {
      h = (h ^ b) * 0x100000001b3L;
    }
    assertThat(HashFunctions.fnv1a64().hash("é")).isEqualTo(h);
  }

  @Test
  void forName_returnsEachNamedFunction() {
    for (String name : HashFunctions.names()) {
      assertThat(HashFunctions.forName(name).name()).isEqualTo(name);
    }
    assertThat(HashFunctions.forName("fnv1-32")).isSameAs(HashFunctions.fnv1_32());
  }

  @Test
  void forName_unknown_listsChoices() {
    assertThatThrownBy(() -> HashFunctions.forName("xx"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("hash must be one of xxh3, murmur3, fnv1a64, md5, fnv1-32, jdk; was \"xx\"");
    assertThatThrownBy(() -> HashFunctions.forName(null)).hasMessageEndingWith("; was null");
  }

  @Test
  void fromConfigName_unknown_listsChoices() {
    assertThatThrownBy(() -> Algorithm.fromConfigName("ringg"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "algorithm must be one of ring, ketama, maglev, rendezvous, jump, jedis; was"
                + " \"ringg\"");
  }

  /** Each UTF-8 function computed the plain way: over {@code String.getBytes(UTF_8)}. */
  private static ToLongFunction<byte[]> overUtf8Bytes(String name) throws Exception {
    switch (name) {
      case "xxh3":
        return Hashing.xxh3_64()::hashBytesToLong;
      case "murmur3":
        return Hashing.murmur3_128()::hashBytesToLong;
      case "fnv1a64":
        return bytes -> {
          long h = 0xcbf29ce484222325L;
          for (byte b : bytes) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
          }
          return h;
        };
      case "md5":
        MessageDigest md = MessageDigest.getInstance("MD5");
        return bytes -> {
          byte[] d = md.digest(bytes);
          long h = 0;
          for (int i = 7; i >= 0; i--) {
            h = (h << 8) | (d[i] & 0xff);
          }
          return h;
        };
      default:
        throw new IllegalArgumentException(name);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"xxh3", "murmur3", "fnv1a64", "md5"})
  void hash_unpairedSurrogates_neitherCollideWithQuestionMarkNorWithEachOther(String name) {
    // issue 11: users:\uD800, users:\uDC00, users:\uDFFF and users:? were one Redis key
    HashFunction f = HashFunctions.forName(name);
    assertThat(
            java.util.stream.Stream.of("users:\uD800", "users:\uDC00", "users:\uDFFF", "users:?")
                .map(f::hash)
                .distinct())
        .hasSize(4);
    assertThat(RoutingKey.of("users:\uD83D\uDE00").bytes())
        .isEqualTo("users:\uD83D\uDE00".getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @ValueSource(strings = {"xxh3", "murmur3", "fnv1a64", "md5"})
  void utf8Hash_withoutEncoding_equalsHashOfUtf8Bytes(String name) throws Exception {
    // ASCII keys are hashed from their chars without encoding; the value must be the UTF-8 one.
    // Lengths up to 300 cover every xxh3 length class and several 64-byte MD5 chunks; non-ASCII
    // keys mix 2-, 3- and 4-byte sequences and unpaired surrogates (which KeyBytes writes in three
    // bytes of their own, where Java's UTF-8 would write '?').
    HashFunction f = HashFunctions.forName(name);
    ToLongFunction<byte[]> expected = overUtf8Bytes(name);
    char[] nonAscii = {
      '\u00e9', '\u00ff', '\u0100', '\u20ac', '\ud800', '\udfff', '\uffff', 0x7f, 0x80
    };
    Random random = new Random(20);
    for (int k = 0; k < 20_000; k++) {
      int length = k < 301 ? k : random.nextInt(301);
      StringBuilder key = new StringBuilder(length);
      boolean ascii = k % 2 == 0;
      for (int i = 0; i < length; i++) {
        if (!ascii && random.nextInt(4) == 0) {
          if (random.nextBoolean()) {
            key.appendCodePoint(0x10000 + random.nextInt(0x100000)); // a surrogate pair
          } else {
            key.append(nonAscii[random.nextInt(nonAscii.length)]);
          }
        } else {
          key.append((char) random.nextInt(0x80));
        }
      }
      String s = key.toString();
      long want = expected.applyAsLong(RoutingKey.of(s).bytes());
      assertThat(f.hash(s)).as("%s of %s", name, s).isEqualTo(want);
      assertThat(f.hash(key)).as("%s of a StringBuilder", name).isEqualTo(want);
    }
  }
}
