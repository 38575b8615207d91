package io.github.chash.internal.codec;

import io.github.chash.internal.text.Utf8;
import java.lang.reflect.Type;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * {@code codec: string}: a value is UTF-8 text, the bytes a peer client's {@code set(String,
 * String)} writes (Jedis' {@code SafeEncoder}). Only text is stored: any other value, a cached null
 * included (text has no null apart from a string), is refused; stored bytes that are not valid
 * UTF-8 are refused too, never decoded with replacement characters. Thread-safe.
 */
public final class StringCodec implements ValueCodec {

  @Override
  public byte[] encode(Object value) {
    if (!(value instanceof CharSequence text)) {
      throw CodecException.cannotStore(name(), "text", value);
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public Object decode(byte[] bytes, Type type) {
    try {
      return Utf8.decodeStrictly(bytes);
    } catch (CharacterCodingException e) {
      throw new CodecException("stored bytes are not UTF-8 text (codec string)", e);
    }
  }

  @Override
  public String name() {
    return "string";
  }
}
