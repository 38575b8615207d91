package io.github.chash.internal.codec;

import io.github.chash.internal.text.Utf8;
import java.lang.reflect.Type;
import java.nio.charset.CharacterCodingException;

/**
 * {@code codec: string}: a value is UTF-8 text, the bytes a peer client's {@code set(String,
 * String)} writes (Jedis' {@code SafeEncoder}). Only text is stored: any other value, a cached null
 * included (text has no null apart from a string), is refused; stored bytes that are not valid
 * UTF-8 are refused too, never decoded with replacement characters, and so is text UTF-8 cannot
 * hold (an unpaired surrogate), never written as {@code ?}. Thread-safe.
 */
public final class StringCodec implements ValueCodec {

  @Override
  public byte[] encode(Object value) {
    if (!(value instanceof CharSequence text)) {
      throw CodecException.cannotStore(name(), "text", value);
    }
    return utf8(text);
  }

  @Override
  public Object decode(byte[] bytes, Type type) {
    return text(bytes);
  }

  /**
   * {@return the text's UTF-8 bytes, as a peer client writes a string}
   *
   * @param text the text
   * @throws CodecException if UTF-8 cannot hold it (an unpaired surrogate): {@code getBytes} would
   *     write {@code ?} for it, and another string would be read back
   */
  public static byte[] utf8(CharSequence text) {
    try {
      return Utf8.encodeStrictly(text.toString());
    } catch (CharacterCodingException e) {
      throw new CodecException("text with an unpaired surrogate, which UTF-8 cannot hold", e);
    }
  }

  /**
   * {@return the text of stored UTF-8 bytes}
   *
   * @param bytes what a peer client or this codec stored
   * @throws CodecException if they are not UTF-8, never decoded with replacement characters
   */
  public static String text(byte[] bytes) {
    try {
      return Utf8.decodeStrictly(bytes);
    } catch (CharacterCodingException e) {
      throw new CodecException("stored bytes are not UTF-8 text", e);
    }
  }

  @Override
  public String name() {
    return "string";
  }
}
