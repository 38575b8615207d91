package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.ring.HashFunction;
import io.github.chash.ring.HashFunctions;
import java.time.LocalDate;
import java.util.ArrayList;
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
  void decimalLength_isTheLengthOfLongToString_atEveryPowerOfTenAndOfTwo() {
    List<Long> around = new ArrayList<>();
    for (long p = 1; p > 0 && p < Long.MAX_VALUE / 10 * 10; p *= 10) {
      around.add(p);
    }
    for (int k = 0; k < 64; k++) {
      around.add(1L << k);
    }
    for (long p : around) {
      for (long v : new long[] {p - 1, p, p + 1, -(p - 1), -p, -(p + 1)}) {
        assertThat(CanonicalKeys.decimalLength(v))
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
      assertThat(KeyProbe.of("inner:", new Account("us", 5), "inner").toString())
          .isEqualTo("inner:(us,5)");
      assertThat(KeyProbe.of("inner:", 5L).toString()).isEqualTo("inner:5");
      return name;
    }
  }

  /** The same, in a record whose form goes through the thread's builder (a list component). */
  record ReentrantList(List<String> names) {
    @Override
    public List<String> names() {
      // the enclosing lookup holds the thread's builder: this one gets no probe, and its caller
      // builds its routing key as a string
      assertThat(KeyProbe.of("inner:", List.of("x"), "inner")).isNull();
      assertThat(KeyProbe.of("inner:", new Account("us", 5), "inner").toString())
          .isEqualTo("inner:(us,5)");
      return names;
    }
  }

  @Test
  void of_aCompositeKeyWhoseAccessorLooksUpAnotherKey_keepsItsOwnFormOrHasNone() {
    // written straight into the probe, which the accessor's own lookup wrote over: no probe, the
    // caller builds the routing key as a string
    assertThat(KeyProbe.of("users:", new Reentrant("ann"), "test")).isNull();
    assertThat(CanonicalKeys.prefixed("users:", new Reentrant("ann"), "test"))
        .isEqualTo("users:(ann)");
    assertThat(KeyProbe.of("users:", new ReentrantList(List.of("ann")), "test").toString())
        .isEqualTo("users:([ann])");
    assertThat(KeyProbe.of("users:", new Account("eu", 1), "test").toString())
        .isEqualTo("users:(eu,1)");
  }

  record Flat(
      String text,
      long l,
      int i,
      short s,
      byte b,
      Long boxedLong,
      Integer boxed,
      Short sh,
      Byte by) {}

  @Test
  void of_aRecordOfStringsAndIntegers_holdsTheFormTheBuilderWrites() {
    List<Flat> keys =
        List.of(
            new Flat("eu", 1, 2, (short) 3, (byte) 4, 5L, 6, (short) 7, (byte) 8),
            new Flat(
                null,
                -1,
                Integer.MIN_VALUE,
                Short.MIN_VALUE,
                Byte.MIN_VALUE,
                null,
                null,
                null,
                null),
            new Flat(
                "a,b(c)=[d]{e}\\f",
                Long.MIN_VALUE,
                0,
                (short) 0,
                (byte) 0,
                Long.MAX_VALUE,
                -9,
                null,
                (byte) -1),
            new Flat(",", 0, 0, (short) 0, (byte) 0, 0L, 0, (short) 0, (byte) 0),
            new Flat(
                "ünï\uD83D\uDE00)",
                10,
                100,
                (short) 1000,
                (byte) 100,
                -10L,
                -100,
                (short) -1000,
                null),
            new Flat("", 0, 0, (short) 0, (byte) 0, null, null, null, null));
    for (String prefix : new String[] {"users:", "ü:", ""}) {
      for (Flat key : keys) {
        String expected = CanonicalKeys.prefixed(prefix, key, "test");
        KeyProbe probe = KeyProbe.of(prefix, key, "test");
        assertThat(probe.toString()).as(expected).isEqualTo(expected);
        assertThat(probe.hashCode()).as(expected).isEqualTo(expected.hashCode());
        assertThat(probe.equals(expected)).isTrue();
        assertThat(probe.asciiBytes() == null).as(expected).isEqualTo(!isAscii(expected));
      }
    }
  }

  record Text(String text) {}

  @Test
  void of_recordsOfTwoClassesTakingTurns_eachTakeTheirOwnComponents() {
    for (int i = 0; i < 3; i++) {
      assertThat(KeyProbe.of("k:", new Account("eu", i), "test").toString())
          .isEqualTo("k:(eu," + i + ")");
      assertThat(KeyProbe.of("k:", new Text("t" + i), "test").toString())
          .isEqualTo("k:(t" + i + ")");
    }
  }

  @Test
  void of_aFlatRecordNearTheLongestKey_isHeldWhileItFits_andNullAfter() {
    for (int n = 0; n <= KeyProbe.MAX_LENGTH; n++) {
      for (String text : new String[] {"x".repeat(n), ",".repeat(n / 2)}) {
        Text key = new Text(text);
        String expected = CanonicalKeys.prefixed("users:", key, "test");
        KeyProbe probe = KeyProbe.of("users:", key, "test");
        if (probe != null) {
          assertThat(probe.toString()).isEqualTo(expected);
          assertThat(probe.hashCode()).isEqualTo(expected.hashCode());
        } else {
          // a form may be refused a little before the longest key, never one much shorter
          assertThat(expected.length()).as(expected).isGreaterThan(KeyProbe.MAX_LENGTH - 21);
        }
      }
    }
    assertThat(KeyProbe.of("users:", new Text("x"), "test").toString()).isEqualTo("users:(x)");
  }

  @Test
  void of_keysOfCachesTakingTurns_eachHoldsItsOwnPrefix() {
    String users = "users:";
    String equalUsers = new String("users:");
    String accounts = "accöunts:";
    Object[][] turns = {
      {users, 42L},
      {accounts, 42L},
      {users, "ann"},
      {equalUsers, new Account("eu", 1)},
      {accounts, new Account("eu", 1)},
      {"", 7L},
      {users, List.of(1)},
      {"u:", 5L},
      {users, 5L}
    };
    for (Object[] turn : turns) {
      String prefix = (String) turn[0];
      String expected = CanonicalKeys.prefixed(prefix, turn[1], "test");
      KeyProbe probe = KeyProbe.of(prefix, turn[1], "test");
      assertThat(probe.toString()).isEqualTo(expected);
      assertThat(probe.hashCode()).isEqualTo(expected.hashCode());
      assertThat(probe.asciiBytes() == null).as(expected).isEqualTo(!isAscii(expected));
    }
  }

  private static boolean isAscii(String s) {
    return s.chars().allMatch(c -> c < 0x80);
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
