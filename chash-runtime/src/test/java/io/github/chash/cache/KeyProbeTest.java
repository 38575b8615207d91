package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.ring.HashFunction;
import io.github.chash.ring.HashFunctions;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class KeyProbeTest {
  @Test
  void of_long_isThePrefixAndTheDecimalAndHashesAsThatString() {
    for (long id :
        new long[] {
          0,
          1,
          -1,
          9,
          10,
          -10,
          99,
          100,
          -100,
          101,
          999,
          -1000,
          1L << 40,
          999_999_999_999_999_999L,
          1_000_000_000_000_000_000L,
          Long.MAX_VALUE,
          Long.MIN_VALUE,
          Long.MIN_VALUE + 1
        }) {
      String expected = "users:" + id;
      KeyProbe probe = KeyProbe.of("users:", id);
      assertThat(probe.toString()).isEqualTo(expected);
      assertThat(probe.length()).isEqualTo(expected.length());
      assertThat(probe.hashCode()).isEqualTo(expected.hashCode());
      assertThat(probe.equals(expected)).isTrue();
    }
  }

  @Test
  void decimalLength_isTheLengthOfLongToString_atEveryPowerOfTen() {
    for (long p = 1; p > 0 && p < Long.MAX_VALUE / 10 * 10; p *= 10) {
      for (long v : new long[] {p - 1, p, p + 1, -(p - 1), -p, -(p + 1)}) {
        assertThat(KeyProbe.decimalLength(v))
            .as(Long.toString(v))
            .isEqualTo(Long.toString(v).length());
        assertThat(KeyProbe.of("", v).toString()).isEqualTo(Long.toString(v));
      }
    }
  }

  @Test
  void of_string_matchesEqualStringsOnly() {
    KeyProbe probe = KeyProbe.of("users:", "ünï\uD83D\uDE00");
    assertThat(probe.toString()).isEqualTo("users:ünï\uD83D\uDE00");
    assertThat(probe.hashCode()).isEqualTo("users:ünï\uD83D\uDE00".hashCode());
    assertThat(probe.equals("users:ünï\uD83D\uDE00")).isTrue();
    assertThat(probe.equals("users:ünï")).isFalse();
    assertThat(probe.equals("users:ünï\uD83D\uDE01")).isFalse();
    assertThat(probe.equals(new StringBuilder("users:ünï\uD83D\uDE00"))).isFalse();
    assertThat(probe.subSequence(0, 5).toString()).isEqualTo("users");
  }

  @Test
  void of_reusesTheThreadsProbe_andRefusesKeysTooLong() {
    assertThat(KeyProbe.of("a:", 1)).isSameAs(KeyProbe.of("b:", "x"));
    assertThat(KeyProbe.of("a:", "x".repeat(KeyProbe.MAX_LENGTH - 2))).isNotNull();
    assertThat(KeyProbe.of("a:", "x".repeat(KeyProbe.MAX_LENGTH - 1))).isNull();
    assertThat(KeyProbe.of("a".repeat(KeyProbe.MAX_LENGTH - 19), 1)).isNull();
  }

  @Test
  void hashesAsTheRoutingKeyString_underEveryHashFunction_fromItsBytesWhileAscii() {
    for (String name : HashFunctions.names()) {
      HashFunction hash = HashFunctions.forName(name);
      for (String key : new String[] {"42", "u1x", "", "ünï\uD83D\uDE00", "x".repeat(240)}) {
        KeyProbe probe = KeyProbe.of("users:", key);
        assertThat(hash.hash(probe)).as(name + " of " + key).isEqualTo(hash.hash("users:" + key));
      }
      assertThat(hash.hash(KeyProbe.of("users:", -17L))).isEqualTo(hash.hash("users:-17"));
    }
    assertThat(KeyProbe.of("users:", 42L).asciiBytes()).startsWith("users:42".getBytes());
    assertThat(KeyProbe.of("users:", "ünï").asciiBytes()).isNull();
  }

  record Account(String region, long id) {}

  enum Tier {
    GOLD
  }

  @Test
  void of_anyKey_holdsTheRoutingKeyTheStringPathBuilds() {
    List<Object> keys =
        Arrays.asList(
            new Account("eu", 1L << 40),
            new Account("a,b(c)", -1),
            List.of(1, "x,y", List.of()),
            Set.of(3, 1, 2),
            Map.of("b", 2, "a", 1),
            new int[] {1, 2},
            null,
            Tier.GOLD,
            UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
            2.50d,
            true,
            'c',
            LocalDate.of(2026, 12, 1),
            "users",
            7,
            7L);
    for (Object key : keys) {
      KeyProbe probe = KeyProbe.of("users:", key, "test");
      String expected = CanonicalKeys.prefixed("users:", key, "test");
      assertThat(probe.toString()).as(String.valueOf(key)).isEqualTo(expected);
      assertThat(probe.hashCode()).isEqualTo(expected.hashCode());
      assertThat(probe.equals(expected)).isTrue();
    }
  }

  /** A key whose accessor looks up another key on the same thread, as a woven getter might. */
  record Reentrant(String name) {
    @Override
    public String name() {
      // the enclosing lookup holds the thread's builder: this one gets no probe, and its caller
      // builds its routing key as a string
      assertThat(KeyProbe.of("inner:", new Account("us", 5), "inner")).isNull();
      assertThat(KeyProbe.of("inner:", 5L).toString()).isEqualTo("inner:5");
      return name;
    }
  }

  @Test
  void of_aCompositeKeyWhoseAccessorLooksUpAnotherKey_keepsItsOwnForm() {
    assertThat(KeyProbe.of("users:", new Reentrant("ann"), "test").toString())
        .isEqualTo("users:(ann)");
    assertThat(KeyProbe.of("users:", new Account("eu", 1), "test").toString())
        .isEqualTo("users:(eu,1)");
  }

  @Test
  void of_aCompositeKeyTooLong_isNull_andTheNextKeyIsRight() {
    assertThat(KeyProbe.of("users:", List.of("x".repeat(100_000)), "test")).isNull();
    assertThat(KeyProbe.of("users:", List.of("x"), "test").toString()).isEqualTo("users:[x]");
  }

  @Test
  void findsTheEntryOfTheEqualStringInHashMaps() {
    Map<String, Integer> concurrent = new ConcurrentHashMap<>();
    Map<String, Integer> plain = new HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      concurrent.put("users:" + i, i);
    }
    for (int i = 0; i < 10_000; i += 97) {
      assertThat(concurrent.get(KeyProbe.of("users:", i))).isEqualTo(i);
      assertThat(concurrent.get(KeyProbe.of("users:", Integer.toString(i)))).isEqualTo(i);
    }
    assertThat(concurrent.get(KeyProbe.of("users:", 10_000))).isNull();
    assertThat(concurrent.get(KeyProbe.of("orders:", 1))).isNull();
    assertThat(plain).isEmpty();
  }

  @Test
  void of_hashCodeIsStringHashCodeAtEveryLength() {
    StringBuilder key = new StringBuilder();
    for (int length = 0; length + "users:".length() <= KeyProbe.MAX_LENGTH; length++) {
      String expected = "users:" + key;
      assertThat(KeyProbe.of("users:", key.toString()).hashCode())
          .as("length %d", expected.length())
          .isEqualTo(expected.hashCode());
      key.append((char) ('a' + length % 26 + (length % 7 == 0 ? 0x3000 : 0)));
    }
  }
}
