package io.github.chash.internal.codec;

import java.lang.reflect.Type;

/**
 * {@code codec: bytes}: a value is a {@code byte[]}, stored as it is (a copy), as a peer client's
 * {@code set(byte[], byte[])} writes. Any other value, a cached null included, is refused.
 * Thread-safe.
 */
public final class BytesCodec implements ValueCodec {

  @Override
  public byte[] encode(Object value) {
    if (!(value instanceof byte[] bytes)) {
      throw CodecException.cannotStore(name(), "byte[]", value);
    }
    return bytes.clone();
  }

  @Override
  public Object decode(byte[] bytes, Type type) {
    return bytes.clone();
  }

  @Override
  public String name() {
    return "bytes";
  }
}
