package io.github.chash.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.ValueRefusedException;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.NullValue;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code codec: string} and {@code bytes}: what they store, and the hostile values they refuse. */
class TextCodecsTest {
  private static final System.Logger LOG = System.getLogger(TextCodecsTest.class.getName());

  private static StoredValues values(ValueCodec codec, long max) {
    return new StoredValues("r1", codec, max, "redis", LOG);
  }

  @Test
  void string_isUtf8Text_asJedisWritesIt() {
    StoredValues text = values(new StringCodec(), 1024);
    assertThat(text.encode("ünï ✓")).isEqualTo("ünï ✓".getBytes(StandardCharsets.UTF_8));
    assertThat(text.decode("ünï ✓".getBytes(StandardCharsets.UTF_8), ValueType.of(String.class)))
        .isEqualTo("ünï ✓");
  }

  @Test
  void string_largerThanMaxValueSize_refusedBothWays() {
    StoredValues text = values(new StringCodec(), 10);
    assertThatThrownBy(() -> text.encode("x".repeat(11)))
        .isInstanceOf(ValueRefusedException.class)
        .hasMessageContaining("maxValueSize");
    assertThatThrownBy(() -> text.decode(new byte[11], ValueType.OBJECT))
        .isInstanceOf(ValueRefusedException.class)
        .hasMessageContaining("maxValueSize");
  }

  @Test
  void string_refusesOtherValues_cachedNulls_andBytesThatAreNotUtf8() {
    StoredValues text = values(new StringCodec(), 1024);
    assertThatThrownBy(() -> text.encode(42)).isInstanceOf(ValueRefusedException.class);
    assertThatThrownBy(() -> text.encode(NullValue.INSTANCE))
        .isInstanceOf(ValueRefusedException.class)
        .hasMessageContaining("cached null");
    assertThatThrownBy(() -> text.decode(new byte[] {(byte) 0xc3}, ValueType.OBJECT))
        .isInstanceOf(ValueRefusedException.class);
    assertThatThrownBy(
            () -> text.decode("7".getBytes(StandardCharsets.UTF_8), ValueType.of(Integer.class)))
        .isInstanceOf(ValueRefusedException.class);
  }

  /** Text UTF-8 cannot hold is refused, never written as the {@code ?} that reads back. */
  @Test
  void string_refusesTextWithAnUnpairedSurrogate() {
    StoredValues text = values(new StringCodec(), 1024);
    assertThatThrownBy(() -> text.encode("a\uD800b"))
        .isInstanceOf(ValueRefusedException.class)
        .hasMessageContaining("unpaired surrogate");
    assertThat(text.decode(text.encode("\uD83D\uDE00"), ValueType.OBJECT))
        .isEqualTo("\uD83D\uDE00");
  }

  @Test
  void bytes_storedAsGiven_copied_andBounded() {
    StoredValues raw = values(new BytesCodec(), 4);
    byte[] value = {1, 2, 3};
    byte[] stored = raw.encode(value);
    value[0] = 9;
    assertThat(stored).containsExactly(1, 2, 3);
    assertThat((byte[]) raw.decode(stored, ValueType.of(byte[].class))).containsExactly(1, 2, 3);
    assertThatThrownBy(() -> raw.encode(new byte[5])).isInstanceOf(ValueRefusedException.class);
    assertThatThrownBy(() -> raw.encode("text")).isInstanceOf(ValueRefusedException.class);
    assertThatThrownBy(() -> raw.decode(new byte[5], ValueType.OBJECT))
        .isInstanceOf(ValueRefusedException.class);
  }
}
