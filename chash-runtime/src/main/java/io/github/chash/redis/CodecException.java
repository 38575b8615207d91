package io.github.chash.redis;

/**
 * A value could not be encoded or decoded. Its message names classes, never values, so it is safe
 * to log.
 */
class CodecException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String refusedClass;

  CodecException(String message, Throwable cause) {
    this(message, null, cause);
  }

  CodecException(String message, String refusedClass, Throwable cause) {
    super(message, cause);
    this.refusedClass = refusedClass;
  }

  /** The class name the allow-list refused, or null when the failure was something else. */
  String refusedClass() {
    return refusedClass;
  }
}
