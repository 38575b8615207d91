package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RoutingKeyTest {

  /** Texts with every kind of char: ASCII, 2- and 3-byte, pairs, unpaired surrogates. */
  private static List<String> texts() {
    List<String> texts =
        new ArrayList<>(
            List.of("", "users:42", "users:é", "users:\u20AC", "u:\uD83D\uDE00", "users:\uD800"));
    texts.add("users:\uDC00x");
    texts.add("users:\uDBFF\uD800\uDFFF");
    SplittableRandom random = new SplittableRandom(31);
    for (int k = 0; k < 5_000; k++) {
      char[] chars = new char[random.nextInt(12)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] =
            random.nextBoolean()
                ? (char) random.nextInt(0x80)
                : (char) random.nextInt(Character.MAX_VALUE + 1);
      }
      texts.add(new String(chars));
    }
    return texts;
  }

  @Test
  void bytes_areUtf8_exceptThatAnUnpairedSurrogateKeepsItsThreeBytes() {
    assertThat(RoutingKey.of("users:é\uD83D\uDE00").bytes())
        .isEqualTo("users:é\uD83D\uDE00".getBytes(StandardCharsets.UTF_8));
    assertThat(RoutingKey.of("u:\uD800").bytes())
        .isEqualTo(new byte[] {'u', ':', (byte) 0xED, (byte) 0xA0, (byte) 0x80});
    assertThat(RoutingKey.of("u:\uD800")).isNotEqualTo(RoutingKey.of("u:?"));
  }

  @Test
  void everyWayOfMakingAKey_givesTheSameKey_equalBothWays_withItsText() {
    List<String> texts = texts();
    for (int k = 0; k < texts.size(); k++) {
      String text = texts.get(k);
      String prefix = texts.get((k * 7) % texts.size());
      RoutingKey whole = RoutingKey.of(prefix + text);
      RoutingKey joined = RoutingKey.of(prefix, text);
      RoutingKey fromBytes = RoutingKey.ofBytes(whole.bytes(), 0, whole.bytes().length);
      for (RoutingKey key : List.of(joined, fromBytes)) {
        assertThat(key).as("%s + %s", prefix, text).isEqualTo(whole);
        assertThat(whole).isEqualTo(key);
        assertThat(key.hashCode()).isEqualTo(whole.hashCode());
        assertThat(key.bytes()).isEqualTo(whole.bytes());
        assertThat(key.text()).isEqualTo(prefix + text);
        assertThat(key.length()).isEqualTo(text.length() + prefix.length());
        assertThat(key.startsWith(prefix)).isTrue();
      }
    }
  }

  @Test
  void aHighSurrogateEndingThePrefix_pairsWithALowOneStartingTheRest() {
    String text = "p\uD83D" + "\uDE00";
    assertThat(RoutingKey.of("p\uD83D", "\uDE00")).isEqualTo(RoutingKey.of(text));
    assertThat(RoutingKey.of("p\uD83D", "\uDE00").bytes())
        .isEqualTo(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void concatOfALong_isItsDecimal() {
    RoutingKey users = RoutingKey.of("users:");
    List<Long> numbers =
        new ArrayList<>(
            List.of(0L, 1L, -1L, 9L, 10L, -10L, 99L, 100L, Long.MAX_VALUE, Long.MIN_VALUE));
    for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
      numbers.addAll(List.of(p - 1, p, p + 1, -p, -p + 1, -p - 1));
    }
    for (long n : numbers) {
      RoutingKey key = users.concat(n);
      assertThat(key.text()).isEqualTo("users:" + n);
      assertThat(key).isEqualTo(RoutingKey.of("users:" + n));
      assertThat(key.hashCode()).isEqualTo(RoutingKey.of("users:" + n).hashCode());
    }
  }

  @Test
  void aKeyIsNeverEqualToAString_andDistinctTextsAreDistinctKeys() {
    RoutingKey key = RoutingKey.of("users:1");
    assertThat(key.equals("users:1")).isFalse();
    assertThat("users:1".equals(key)).isFalse();
    assertThat(key).isNotEqualTo(RoutingKey.of("users:10"));
    assertThat(key.toString()).isEqualTo("users:1");
  }

  @Test
  void ofBytes_refusesBytesThatAreNoKey() {
    assertThat(RoutingKey.ofBytes(new byte[] {(byte) 0x80}, 0, 1)).isNull();
    assertThat(RoutingKey.ofBytes(new byte[] {'a', (byte) 0xE2, (byte) 0x82}, 0, 3)).isNull();
  }

  @Test
  void everyHash_placesAKeyAsItsText() {
    List<String> texts = texts().subList(0, 500);
    for (String name : HashFunctions.names()) {
      HashFunction hash = HashFunctions.forName(name);
      for (String text : texts) {
        assertThat(hash.hash(RoutingKey.of("users:", text)))
            .as("%s of %s", name, text)
            .isEqualTo(hash.hash("users:" + text));
      }
    }
    Ring ring = Rings.create(RingSettings.defaults(), nodes());
    for (int i = 0; i < 1_000; i++) {
      assertThat(ring.locate(RoutingKey.of("users:").concat(i)))
          .isEqualTo(ring.locate("users:" + i));
    }
  }

  private static List<Node> nodes() {
    List<Node> nodes = new ArrayList<>();
    for (String id : new String[] {"a", "b", "c", "d"}) {
      nodes.add(Node.of(id));
    }
    return nodes;
  }
}
