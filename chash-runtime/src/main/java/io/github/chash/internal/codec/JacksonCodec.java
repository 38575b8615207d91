package io.github.chash.internal.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.chash.internal.cache.NullValue;
import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * JSON through Jackson, decoding to the exact generic type the caller expects ({@code List<Order>},
 * records). Polymorphic typing stays off (Jackson's default), so the bytes never choose a class.
 * Modules on the class path (java.time, Kotlin, ...) are registered.
 */
public final class JacksonCodec implements ValueCodec {
  private static final byte[] JSON_NULL = "null".getBytes(StandardCharsets.US_ASCII);

  private final ObjectMapper mapper;
  private final ConcurrentHashMap<Type, JavaType> types = new ConcurrentHashMap<>();

  /** The deepest nesting a stored value may have, as the JDK codec's {@code maxdepth}. */
  static final int MAX_DEPTH = 64;

  /** A codec with chash's JSON mapping (bounded depth, the caller's exact types). */
  public JacksonCodec() {
    this(
        JsonMapper.builder(
                JsonFactory.builder()
                    .streamReadConstraints(
                        StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                    .build())
            .findAndAddModules()
            .build());
  }

  JacksonCodec(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  @Override
  public byte[] encode(Object value) {
    if (value == NullValue.INSTANCE) {
      return JSON_NULL.clone();
    }
    try {
      return mapper.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new CodecException(
          "cannot write value of class "
              + value.getClass().getName()
              + " as json: "
              + originalMessage(e),
          e);
    }
  }

  @Override
  public Object decode(byte[] bytes, Type type) {
    if (Arrays.equals(bytes, JSON_NULL)) {
      return NullValue.INSTANCE;
    }
    JavaType javaType = types.computeIfAbsent(type, t -> mapper.getTypeFactory().constructType(t));
    try {
      Object value = mapper.readValue(bytes, javaType);
      return value == null ? NullValue.INSTANCE : value;
    } catch (IOException | RuntimeException | StackOverflowError e) {
      // a stored value must never break the caller, whatever its bytes
      throw new CodecException(
          "cannot read json as " + type.getTypeName() + ": " + originalMessage(e), e);
    }
  }

  @Override
  public String name() {
    return "jackson";
  }

  private static String originalMessage(Throwable e) {
    // Jackson's full message quotes the input; keep only the first line (no value content)
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
