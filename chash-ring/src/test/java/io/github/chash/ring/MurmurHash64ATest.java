package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MurmurHash64ATest {

  /**
   * Values of Austin Appleby's C {@code MurmurHash64A} (smhasher's MurmurHash2.cpp) with seed
   * {@code 0x1234ABCD}, printed as signed 64-bit integers: every tail length 0..7, a whole block
   * and a block plus a tail, ASCII and multi-byte UTF-8.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '\t',
      quoteCharacter = '`',
      value = {
        "``\t8371356515094919947",
        "a\t7990182172224381693",
        "abc\t-5243867982309721058",
        "SHARD-0-NODE-0\t-4813603235750630532",
        "SHARD-12-NODE-159\t2306591961827694299",
        "shard-a*7\t4338928391628724107",
        "key:12345678\t-300075924325671560",
        "1234567\t7948810892520069100",
        "12345678\t5197521178503088135",
        "123456789\t4037711439998167476",
        "ключ:10:é\t-5755464191781772976"
      })
  void hash_matchesTheCReference(String key, long expected) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    assertThat(MurmurHash64A.hash(bytes, 0, bytes.length, MurmurHash64A.JEDIS_SEED))
        .isEqualTo(expected);
    assertThat(MurmurHash64A.hash(key, MurmurHash64A.JEDIS_SEED)).isEqualTo(expected);
  }

  @Test
  void hash_asciiInPlace_equalsTheUtf8Bytes() {
    StringBuilder key = new StringBuilder();
    for (int length = 0; length < 40; length++) {
      byte[] bytes = key.toString().getBytes(StandardCharsets.UTF_8);
      assertThat(MurmurHash64A.hash(key, 7))
          .as("length %s", length)
          .isEqualTo(MurmurHash64A.hash(bytes, 0, bytes.length, 7));
      key.append((char) ('!' + length * 3 % 90));
    }
  }

  @Test
  void hash_ofARange_ignoresTheBytesAround() {
    byte[] framed = "xxSHARD-0-NODE-0yy".getBytes(StandardCharsets.US_ASCII);
    assertThat(MurmurHash64A.hash(framed, 2, 14, MurmurHash64A.JEDIS_SEED))
        .isEqualTo(-4813603235750630532L);
  }
}
