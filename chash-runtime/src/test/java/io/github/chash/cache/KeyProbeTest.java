package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class KeyProbeTest {
  @Test
  void of_long_isThePrefixAndTheDecimalAndHashesAsThatString() {
    for (long id :
        new long[] {
          0, 1, -1, 9, 10, -10, 99, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1
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
}
