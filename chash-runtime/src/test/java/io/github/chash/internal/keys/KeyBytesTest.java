package io.github.chash.internal.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyBytesTest {

  @Test
  void toKey_givesBackEveryKey_unpairedSurrogatesIncluded() {
    List<String> keys =
        new ArrayList<>(List.of("", "users:42", "users:é", "users:\u20AC", "u:\uD83D\uDE00"));
    keys.add("users:\uD800");
    keys.add("users:\uDC00x");
    keys.add("users:\uDBFF\uD800\uDFFF");
    SplittableRandom random = new SplittableRandom(26);
    for (int k = 0; k < 10_000; k++) {
      char[] chars = new char[random.nextInt(12)];
      for (int i = 0; i < chars.length; i++) {
        chars[i] = (char) random.nextInt(Character.MAX_VALUE + 1);
      }
      keys.add("users:" + new String(chars));
    }
    for (String key : keys) {
      byte[] bytes = KeyBytes.of(key);
      byte[] framed = new byte[bytes.length + 4];
      System.arraycopy(bytes, 0, framed, 2, bytes.length);
      assertThat(KeyBytes.toKey(framed, 2, bytes.length)).as("key %s", key).isEqualTo(key);
    }
  }

  @Test
  void toKey_readsAnUnpairedSurrogateAsItself_notAsUtf8Does() {
    byte[] bytes = KeyBytes.of("users:\uD800");
    assertThat(new String(bytes, StandardCharsets.UTF_8)).isNotEqualTo("users:\uD800");
    assertThat(KeyBytes.toKey(bytes, 0, bytes.length)).isEqualTo("users:\uD800");
  }

  @Test
  void toKey_refusesBytesNoKeyHas() {
    assertThat(KeyBytes.toKey(new byte[] {'a', (byte) 0x80}, 0, 2)).isNull();
    assertThat(KeyBytes.toKey(new byte[] {'a', (byte) 0xE2, (byte) 0x82}, 0, 3)).isNull();
    assertThat(KeyBytes.toKey(new byte[] {(byte) 0xFF}, 0, 1)).isNull();
  }
}
