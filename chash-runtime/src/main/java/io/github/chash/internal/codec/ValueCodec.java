package io.github.chash.internal.codec;

import java.lang.reflect.Type;

/**
 * Turns cache values into the bytes a remote node (Redis, memcached) stores, and back.
 * Implementations are thread-safe.
 */
public interface ValueCodec {

  /**
   * Encodes a value; {@code io.github.chash.internal.cache.NullValue.INSTANCE} (a cached null)
   * included.
   *
   * @param value the value
   * @return its bytes
   * @throws CodecException if the value cannot be encoded (for example, not serializable)
   */
  byte[] encode(Object value);

  /**
   * Decodes stored bytes to a value of the given type.
   *
   * @param bytes the stored bytes
   * @param type the type the caller expects
   * @return the value
   * @throws CodecException if the bytes cannot be decoded, or hold a class the codec refuses
   */
  Object decode(byte[] bytes, Type type);

  /**
   * {@return the codec's name in {@code chash.yaml} ({@code redis.codec}, {@code memcached.codec})}
   */
  String name();
}
