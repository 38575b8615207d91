package io.github.chash.internal.codec;

import io.github.chash.cache.ValueRefusedException;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.EncodedValue;
import io.github.chash.internal.cache.NullValue;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a remote node (Redis, memcached) does with values on their way to and from its server, one
 * rule for both: the codec, the size limit ({@code redis.maxValueSize}, {@code
 * memcached.maxValueSize}) before sending and after receiving, the expected type, and the refusals
 * ({@link ValueRefusedException}) of all that, logged at WARNING the first time for each reason (a
 * class name, "oversized"), then at DEBUG, so a hot key cannot flood the log.
 *
 * <p>An {@link EncodedValue} passes the codec by: its bytes are stored as they are, and stored
 * bytes are handed back as one to a caller expecting that type, apart from the codec's own bytes of
 * a cached null, which stay the cached null. Thread-safe.
 */
public final class StoredValues {
  private static final int LOGGED_REASONS_LIMIT = 1000;

  private final String nodeId;
  private final ValueCodec codec;
  private final long maxValueSize;
  private final String block;
  private final System.Logger log;
  private final Set<String> loggedReasons = ConcurrentHashMap.newKeySet();

  /** The codec's bytes of a cached null, or null when it stores none. */
  private final byte[] nullBytes;

  /**
   * @param nodeId the node's id, for messages
   * @param codec the node's codec
   * @param maxValueSize the largest encoded value, in bytes
   * @param block the configuration block the limit comes from ({@code redis}, {@code memcached})
   * @param log the node's logger
   */
  public StoredValues(
      String nodeId, ValueCodec codec, long maxValueSize, String block, System.Logger log) {
    this.nodeId = nodeId;
    this.codec = codec;
    this.maxValueSize = maxValueSize;
    this.block = block;
    this.log = log;
    this.nullBytes = nullBytes(codec);
  }

  private static byte[] nullBytes(ValueCodec codec) {
    try {
      return codec.encode(NullValue.INSTANCE);
    } catch (CodecException none) {
      return null; // a codec of peer clients' formats (string, bytes) has no null
    }
  }

  /**
   * The value's bytes.
   *
   * @param value the value
   * @return its bytes
   * @throws ValueRefusedException if the codec cannot write it (the caller's bug, not the node's
   *     failure) or it is larger than {@code maxValueSize}
   */
  public byte[] encode(Object value) {
    byte[] bytes;
    try {
      bytes = value instanceof EncodedValue own ? own.bytes() : codec.encode(value);
    } catch (CodecException e) {
      throw notStored(e);
    }
    if (bytes.length > maxValueSize) {
      throw refused(
          "oversized",
          "value of class "
              + value.getClass().getName()
              + " takes "
              + bytes.length
              + " bytes, more than "
              + block
              + ".maxValueSize ("
              + maxValueSize
              + " bytes); not stored",
          null);
    }
    return bytes;
  }

  /**
   * Refuses a stored value of {@code size} bytes larger than {@code maxValueSize}, before it is
   * decoded.
   *
   * @param size the stored value's size in bytes
   * @throws ValueRefusedException if it is larger
   */
  public void checkStoredSize(long size) {
    if (size > maxValueSize) {
      throw refused(
          "oversized",
          "stored value of "
              + size
              + " bytes is larger than "
              + block
              + ".maxValueSize ("
              + maxValueSize
              + " bytes); read as a miss, not decoded",
          null);
    }
  }

  /**
   * A stored value of the expected type (or the cached null's marker).
   *
   * @param bytes the stored bytes
   * @param type the type the caller expects
   * @return the value
   * @throws ValueRefusedException if it is larger than {@code maxValueSize}, the codec refuses it,
   *     or it is not of the expected type
   */
  public Object decode(byte[] bytes, ValueType type) {
    checkStoredSize(bytes.length);
    if (type.rawClass() == EncodedValue.class) {
      return Arrays.equals(bytes, nullBytes) ? NullValue.INSTANCE : new EncodedValue(bytes);
    }
    Object value;
    try {
      value = codec.decode(bytes, type.type());
    } catch (CodecException e) {
      throw unreadable(e);
    }
    return ofType(value, type);
  }

  /**
   * {@return the refusal of a value a codec could not write: not stored}
   *
   * @param e what the codec said
   */
  public ValueRefusedException notStored(CodecException e) {
    return refused(reason(e), "value not stored: " + e.getMessage(), e);
  }

  /**
   * {@return the refusal of stored bytes a codec could not read: a miss}
   *
   * @param e what the codec said
   */
  public ValueRefusedException unreadable(CodecException e) {
    return refused(reason(e), "stored value read as a miss: " + e.getMessage(), e);
  }

  private static String reason(CodecException e) {
    return e.refusedClass() != null ? e.refusedClass() : e.getMessage();
  }

  /**
   * {@return a decoded value, if it is of the expected type (or the cached null's marker)}
   *
   * @param value what a codec decoded
   * @param type the type the caller expects
   * @throws ValueRefusedException if it is not: a miss
   */
  public Object ofType(Object value, ValueType type) {
    if (!isInstance(type.rawClass(), value)) {
      String got = value.getClass().getName();
      throw refused(
          got,
          "stored value of class "
              + got
              + " is not a "
              + type.type().getTypeName()
              + "; read as a miss",
          null);
    }
    return value;
  }

  /**
   * {@return a refusal, logged as the class comment says}
   *
   * @param reason groups the log lines (one line per reason)
   * @param message what was refused
   * @param cause the codec's exception, or null
   */
  public ValueRefusedException refused(String reason, String message, Throwable cause) {
    boolean first = loggedReasons.size() < LOGGED_REASONS_LIMIT && loggedReasons.add(reason);
    String line = "node \"" + nodeId + "\": " + message;
    log.log(first ? Level.WARNING : Level.DEBUG, line);
    return new ValueRefusedException(line, cause);
  }

  private static boolean isInstance(Class<?> expected, Object value) {
    if (expected.isPrimitive()) {
      return java.lang.invoke.MethodType.methodType(expected).wrap().returnType().isInstance(value);
    }
    return expected.isInstance(value) || value == NullValue.INSTANCE;
  }
}
