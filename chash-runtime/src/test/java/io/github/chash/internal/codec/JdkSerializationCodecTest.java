package io.github.chash.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.internal.cache.NullValue;
import io.github.chash.internal.codec.CodecValues.Gadget;
import io.github.chash.internal.codec.CodecValues.Line;
import io.github.chash.internal.codec.CodecValues.Order;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JdkSerializationCodecTest {
  private final JdkSerializationCodec defaults = new JdkSerializationCodec(List.of());

  @Test
  void decode_jdkValueTypes_roundTrip() {
    Map<String, Object> map = new HashMap<>();
    map.put("when", Instant.parse("2026-01-02T03:04:05Z"));
    map.put("day", LocalDate.of(2026, 1, 2));
    map.put("amount", new BigDecimal("12.50"));
    map.put("big", BigInteger.TEN.pow(30));
    map.put("id", UUID.fromString("1b4e28ba-2fa1-11d2-883f-0016d3cca427"));
    map.put("list", new ArrayList<>(List.of(1, 2L, "three", Duration.ofSeconds(4))));
    map.put("bytes", new byte[] {1, 2, 3});
    map.put("immutable", List.of("a", "b"));

    Object decoded = defaults.decode(defaults.encode(map), Object.class);

    assertThat(decoded).usingRecursiveComparison().isEqualTo(map);
  }

  @Test
  void decode_nullMarker_staysTheSingleton() {
    assertThat(defaults.decode(defaults.encode(NullValue.INSTANCE), Object.class))
        .isSameAs(NullValue.INSTANCE);
  }

  @Test
  void decode_classOutsideAllowList_isRefusedAndNamed() {
    byte[] bytes = defaults.encode(new Order(1, "ada", BigDecimal.ONE, List.of()));

    assertThatThrownBy(() -> defaults.decode(bytes, Order.class))
        .isInstanceOf(CodecException.class)
        .hasMessage(
            "class io.github.chash.internal.codec.CodecValues$Order is not allowed by redis.allow")
        .extracting(e -> ((CodecException) e).refusedClass())
        .isEqualTo(Order.class.getName());
  }

  @Test
  void decode_refusedClass_neverRunsItsCode() {
    byte[] bytes = defaults.encode(List.of(new Gadget()));
    Gadget.constructed = false;

    assertThatThrownBy(() -> defaults.decode(bytes, Object.class))
        .isInstanceOf(CodecException.class)
        .hasMessageContaining(Gadget.class.getName());
    assertThat(Gadget.constructed).isFalse();
  }

  @Test
  void decode_configuredPattern_allowsRecords() {
    JdkSerializationCodec codec =
        new JdkSerializationCodec(List.of("io.github.chash.internal.codec.CodecValues$*"));
    Order order = new Order(7, "ada", new BigDecimal("9.99"), List.of(new Line("sku-1", 2)));

    assertThat(codec.decode(codec.encode(order), Order.class)).isEqualTo(order);
  }

  @Test
  void decode_packagePattern_coversSubpackagesOnlyWithDoubleStar() {
    Order order = new Order(7, "ada", BigDecimal.ONE, List.of());
    JdkSerializationCodec parent = new JdkSerializationCodec(List.of("io.github.chash.*"));
    JdkSerializationCodec deep = new JdkSerializationCodec(List.of("io.github.chash.**"));

    assertThatThrownBy(() -> parent.decode(parent.encode(order), Order.class))
        .isInstanceOf(CodecException.class);
    assertThat(deep.decode(deep.encode(order), Order.class)).isEqualTo(order);
  }

  @Test
  void decode_refusalPattern_winsOverALaterAllowance() {
    JdkSerializationCodec codec =
        new JdkSerializationCodec(
            List.of("!io.github.chash.internal.codec.CodecValues$Order", "io.github.chash.**"));

    assertThat(codec.decode(codec.encode(new Line("a", 1)), Line.class))
        .isEqualTo(new Line("a", 1));
    assertThatThrownBy(
            () ->
                codec.decode(
                    codec.encode(new Order(1, "a", BigDecimal.ONE, List.of())), Order.class))
        .isInstanceOf(CodecException.class);
  }

  @Test
  void decode_garbage_isACodecException() {
    assertThatThrownBy(() -> defaults.decode(new byte[] {1, 2, 3}, Object.class))
        .isInstanceOf(CodecException.class)
        .hasMessageStartingWith("cannot deserialize value");
  }

  @Test
  void encode_notSerializable_namesTheClass() {
    assertThatThrownBy(() -> defaults.encode(new Object()))
        .isInstanceOf(CodecException.class)
        .hasMessageStartingWith("value of class java.lang.Object is not serializable");
  }

  @Test
  void new_malformedPattern_isRejectedNamingIt() {
    assertThatThrownBy(() -> new JdkSerializationCodec(List.of("com.example.*;!*")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "redis.allow entry must be one class pattern like com.example.* or com.example.Order,"
                + " was \"com.example.*;!*\"");
  }
}
