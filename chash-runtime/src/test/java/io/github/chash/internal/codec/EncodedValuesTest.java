package io.github.chash.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.ValueRefusedException;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.EncodedValue;
import io.github.chash.internal.cache.NullValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A value its caller encoded (the Spring starter's JSON) passes every codec by: stored as its
 * bytes, read back as them, and the codec's own null stays a cached null.
 */
class EncodedValuesTest {
  private static final System.Logger LOG = System.getLogger(EncodedValuesTest.class.getName());
  private static final ValueType ENCODED = ValueType.of(EncodedValue.class);
  private static final byte[] JSON = "{\"id\":7}".getBytes(StandardCharsets.UTF_8);

  private static List<ValueCodec> codecs() {
    return List.of(
        new JdkSerializationCodec(List.of()),
        new JacksonCodec(),
        new StringCodec(),
        new BytesCodec());
  }

  @Test
  void encodedBytes_areStoredAsTheyAre_andReadBackAsThem_whateverTheCodec() {
    for (ValueCodec codec : codecs()) {
      StoredValues values = new StoredValues("r1", codec, 1024, "redis", LOG);
      byte[] stored = values.encode(new EncodedValue(JSON));
      assertThat(stored).as(codec.name()).isEqualTo(JSON);
      assertThat(((EncodedValue) values.decode(stored, ENCODED)).bytes())
          .as(codec.name())
          .isEqualTo(JSON);
    }
  }

  @Test
  void theCodecsNull_readAsEncoded_isACachedNull() {
    for (ValueCodec codec : List.of(new JdkSerializationCodec(List.of()), new JacksonCodec())) {
      StoredValues values = new StoredValues("r1", codec, 1024, "redis", LOG);
      assertThat(values.decode(values.encode(NullValue.INSTANCE), ENCODED))
          .as(codec.name())
          .isSameAs(NullValue.INSTANCE);
    }
    assertThat(
            new StoredValues("r1", new JacksonCodec(), 1024, "redis", LOG)
                .encode(NullValue.INSTANCE))
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("null");
  }

  @Test
  void encodedBytes_largerThanMaxValueSize_areRefusedBothWays() {
    StoredValues values = new StoredValues("r1", new JacksonCodec(), 4, "redis", LOG);
    assertThatThrownBy(() -> values.encode(new EncodedValue(JSON)))
        .isInstanceOf(ValueRefusedException.class)
        .hasMessageContaining("maxValueSize");
    assertThatThrownBy(() -> values.decode(JSON, ENCODED))
        .isInstanceOf(ValueRefusedException.class)
        .hasMessageContaining("maxValueSize");
  }
}
