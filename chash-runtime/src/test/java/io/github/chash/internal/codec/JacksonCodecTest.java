package io.github.chash.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.internal.cache.NullValue;
import io.github.chash.internal.codec.CodecValues.Line;
import io.github.chash.internal.codec.CodecValues.Order;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JacksonCodecTest {
  private final JacksonCodec codec = new JacksonCodec();

  // the generic return types of methods, as the aspect hands them over
  @SuppressWarnings("unused")
  private static List<Order> orders() {
    return null;
  }

  @SuppressWarnings("unused")
  private static Map<String, List<Line>> linesBySku() {
    return null;
  }

  private static Type returnType(String method) throws NoSuchMethodException {
    return JacksonCodecTest.class.getDeclaredMethod(method).getGenericReturnType();
  }

  @Test
  void decode_listOfRecords_toExactGenericType() throws Exception {
    List<Order> orders =
        List.of(
            new Order(1, "ada", new BigDecimal("10.00"), List.of(new Line("a", 1))),
            new Order(2, "bob", new BigDecimal("2.5"), List.of()));

    Object decoded = codec.decode(codec.encode(orders), returnType("orders"));

    assertThat(decoded).isEqualTo(orders);
    assertThat(((List<?>) decoded).get(0)).isInstanceOf(Order.class);
  }

  @Test
  void decode_nestedGenerics() throws Exception {
    Map<String, List<Line>> value = Map.of("x", List.of(new Line("x", 3)));

    Object decoded = codec.decode(codec.encode(value), returnType("linesBySku"));

    assertThat(decoded).isEqualTo(value);
  }

  @Test
  void decode_nullMarker() {
    assertThat(codec.decode(codec.encode(NullValue.INSTANCE), Order.class))
        .isSameAs(NullValue.INSTANCE);
  }

  @Test
  void decode_jsonOfAnotherShape_isACodecException() {
    byte[] bytes = "{\"unexpected\":true}".getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> codec.decode(bytes, Order.class))
        .isInstanceOf(CodecException.class)
        .hasMessageStartingWith(
            "cannot read json as io.github.chash.internal.codec.CodecValues$Order");
  }

  @Test
  void decode_jdkSerializedBytes_isACodecException() {
    byte[] jdk = new JdkSerializationCodec(List.of()).encode("v");

    assertThatThrownBy(() -> codec.decode(jdk, String.class)).isInstanceOf(CodecException.class);
  }
}
