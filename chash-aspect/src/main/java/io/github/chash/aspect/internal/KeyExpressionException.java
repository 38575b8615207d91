package io.github.chash.aspect.internal;

/**
 * A key expression that cannot be compiled or evaluated; the message names the method, the
 * expression and the position.
 */
public final class KeyExpressionException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception with a full message.
   *
   * @param message the full message
   */
  public KeyExpressionException(String message) {
    super(message);
  }

  /**
   * Creates the exception with a full message and a cause.
   *
   * @param message the full message
   * @param cause the underlying exception
   */
  public KeyExpressionException(String message, Throwable cause) {
    super(message, cause);
  }
}
