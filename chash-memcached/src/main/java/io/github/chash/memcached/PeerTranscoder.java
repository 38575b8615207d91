package io.github.chash.memcached;

import io.github.chash.internal.cache.EncodedValue;
import io.github.chash.internal.cache.NullValue;
import io.github.chash.internal.codec.CodecException;
import io.github.chash.internal.codec.StringCodec;
import io.github.chash.internal.codec.ValueCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Date;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The value format of spymemcached's and XMemcached's {@code SerializingTranscoder} (one wire
 * format: XMemcached took spymemcached's), so that a verbatim cache ({@code codec: spymemcached} or
 * {@code xmemcached}) reads what those clients wrote and they read its writes. The item's flags say
 * what its bytes are: 0 a UTF-8 string; 1 ({@code SERIALIZED}) Java serialization, decoded through
 * the node's {@link ValueCodec} {@code jdk} with its bounded {@code ObjectInputFilter}, never a
 * plain {@code ObjectInputStream}; 2 ({@code COMPRESSED}) gzip over either, inflated to at most
 * {@code maxValueSize} bytes (no compression bomb); {@code 1 << 8} to {@code 8 << 8} a boolean
 * ({@code '1'}/{@code '0'}), int, long, {@code Date}, byte, float, double (big-endian, leading zero
 * bytes dropped) or {@code byte[]}. Writes compress above the clients' default threshold, 16 KB.
 * Immutable; thread-safe.
 */
final class PeerTranscoder {
  static final int SERIALIZED = 1;
  static final int COMPRESSED = 2;
  static final int SPECIAL_MASK = 0xff00;
  static final int BOOLEAN = 1 << 8;
  static final int INT = 2 << 8;
  static final int LONG = 3 << 8;
  static final int DATE = 4 << 8;
  static final int BYTE = 5 << 8;
  static final int FLOAT = 6 << 8;
  static final int DOUBLE = 7 << 8;
  static final int BYTEARRAY = 8 << 8;

  /** spymemcached's and XMemcached's default {@code compressionThreshold}. */
  static final int COMPRESSION_THRESHOLD = 16384;

  /** What the item holds: its flags and bytes. */
  record Item(int flags, byte[] data) {}

  private final ValueCodec serialization;
  private final long maxValueSize;

  /**
   * @param serialization the codec of flag 1 ({@code jdk}, with the node's allow-list)
   * @param maxValueSize the largest value, in bytes, before compression and after inflating
   */
  PeerTranscoder(ValueCodec serialization, long maxValueSize) {
    this.serialization = serialization;
    this.maxValueSize = maxValueSize;
  }

  /**
   * The item of a value, compressed when that makes it smaller.
   *
   * @throws CodecException if the value cannot be stored (a cached null: the clients have none)
   */
  Item encode(Object value) {
    byte[] b;
    int flags = 0;
    if (value instanceof String s) {
      b = StringCodec.utf8(s);
    } else if (value instanceof Long l) {
      b = number(l, 8);
      flags = LONG;
    } else if (value instanceof Integer i) {
      b = number(i, 4);
      flags = INT;
    } else if (value instanceof Boolean bool) {
      b = new byte[] {(byte) (bool ? '1' : '0')};
      flags = BOOLEAN;
    } else if (value instanceof Date d) {
      b = number(d.getTime(), 8);
      flags = DATE;
    } else if (value instanceof Byte by) {
      b = new byte[] {by};
      flags = BYTE;
    } else if (value instanceof Float f) {
      b = number(Float.floatToRawIntBits(f), 4);
      flags = FLOAT;
    } else if (value instanceof Double d) {
      b = number(Double.doubleToRawLongBits(d), 8);
      flags = DOUBLE;
    } else if (value instanceof byte[] bytes) {
      b = bytes.clone();
      flags = BYTEARRAY;
    } else if (value instanceof EncodedValue own) {
      b = own.bytes(); // the caller's own format (the Spring starter's JSON), as a byte[] item
      flags = BYTEARRAY;
    } else if (value == NullValue.INSTANCE) {
      throw new CodecException(
          "a cached null cannot be stored in the peer clients' format", null, null);
    } else {
      b = serialization.encode(value);
      flags = SERIALIZED;
    }
    if (b.length > COMPRESSION_THRESHOLD) {
      byte[] compressed = gzip(b);
      if (compressed.length < b.length) {
        return new Item(flags | COMPRESSED, compressed);
      }
    }
    return new Item(flags, b);
  }

  /**
   * The value of an item.
   *
   * @throws CodecException if its bytes do not match its flags, inflate beyond {@code
   *     maxValueSize}, or hold a class the serialization codec refuses
   */
  Object decode(Item item, java.lang.reflect.Type type) {
    byte[] data = item.data();
    int flags = item.flags();
    if ((flags & COMPRESSED) != 0) {
      data = gunzip(data);
    }
    if ((flags & SERIALIZED) != 0) {
      return serialization.decode(data, type);
    }
    return switch (flags & SPECIAL_MASK) {
      case 0 -> StringCodec.text(data);
      case BOOLEAN -> data.length == 1 && data[0] == '1';
      case INT -> (int) number(data, 4);
      case LONG -> number(data, 8);
      case DATE -> new Date(number(data, 8));
      case BYTE -> {
        if (data.length != 1) {
          throw new CodecException("a byte item of " + data.length + " bytes", null);
        }
        yield data[0];
      }
      case FLOAT -> Float.intBitsToFloat((int) number(data, 4));
      case DOUBLE -> Double.longBitsToDouble(number(data, 8));
      case BYTEARRAY -> type == EncodedValue.class ? new EncodedValue(data) : data;
      default ->
          throw new CodecException(
              "item flags 0x" + Integer.toHexString(flags) + " are no type the clients write",
              null);
    };
  }

  /** Big-endian, leading zero bytes dropped: the clients' {@code TranscoderUtils(packZeros)}. */
  private static byte[] number(long value, int size) {
    byte[] full = new byte[size];
    for (int i = 0; i < size; i++) {
      full[size - 1 - i] = (byte) (value >>> (8 * i));
    }
    int first = 0;
    while (first < size && full[first] == 0) {
      first++;
    }
    return java.util.Arrays.copyOfRange(full, first, size);
  }

  private static long number(byte[] data, int size) {
    if (data.length > size) {
      throw new CodecException("a number item of " + data.length + " bytes, at most " + size, null);
    }
    long value = 0;
    for (byte b : data) {
      value = (value << 8) | (b & 0xff);
    }
    return value;
  }

  private static byte[] gzip(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 2 + 64);
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    } catch (IOException e) {
      throw new IllegalStateException("gzip into memory failed", e);
    }
    return out.toByteArray();
  }

  /** Inflates at most {@code maxValueSize} bytes: more is refused, never read into memory. */
  private byte[] gunzip(byte[] data) {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(data))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(data.length * 4, 1 << 16));
      byte[] buffer = new byte[8192];
      long total = 0;
      for (int n; (n = in.read(buffer)) > 0; ) {
        total += n;
        if (total > maxValueSize) {
          throw new CodecException(
              "a compressed item inflates to more than maxValueSize (" + maxValueSize + " bytes)",
              null);
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new CodecException("a compressed item that is not gzip", e);
    }
  }
}
