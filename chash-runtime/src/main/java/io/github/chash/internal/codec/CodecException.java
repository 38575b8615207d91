package io.github.chash.internal.codec;

/**
 * A value could not be encoded or decoded. Its message names classes, never values, so it is safe
 * to log.
 */
public class CodecException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String refusedClass;

  public CodecException(String message, Throwable cause) {
    this(message, null, cause);
  }

  public CodecException(String message, String refusedClass, Throwable cause) {
    super(message, cause);
    this.refusedClass = refusedClass;
  }

  /** The class name the allow-list refused, or null when the failure was something else. */
  public String refusedClass() {
    return refusedClass;
  }
}
