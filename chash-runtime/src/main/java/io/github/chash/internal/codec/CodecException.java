package io.github.chash.internal.codec;

import io.github.chash.internal.cache.NullValue;

/**
 * A value could not be encoded or decoded. Its message names classes, never values, so it is safe
 * to log.
 */
public class CodecException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The class name the allow-list refused, or null (serialized with the exception). */
  private final String refusedClass;

  /**
   * A failure that is not an allow-list refusal.
   *
   * @param message what failed
   * @param cause the codec library's exception, or null
   */
  public CodecException(String message, Throwable cause) {
    this(message, null, cause);
  }

  /**
   * A failure, naming the class the allow-list refused if that was the cause.
   *
   * @param message what failed
   * @param refusedClass the refused class's name, or null
   * @param cause the codec library's exception, or null
   */
  public CodecException(String message, String refusedClass, Throwable cause) {
    super(message, cause);
    this.refusedClass = refusedClass;
  }

  /**
   * {@return the refusal of a value a codec that stores only one kind of value cannot write}
   *
   * @param codec the codec's name, as configured
   * @param stores what it stores ({@code text}, {@code byte[]})
   * @param value the value it was given
   */
  static CodecException cannotStore(String codec, String stores, Object value) {
    String got = value == NullValue.INSTANCE ? "a cached null" : "a " + value.getClass().getName();
    return new CodecException(
        "codec " + codec + " stores " + stores + ", not " + got, value.getClass().getName(), null);
  }

  /** {@return the class name the allow-list refused, or null when the failure was another} */
  public String refusedClass() {
    return refusedClass;
  }
}
