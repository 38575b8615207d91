package io.github.chash.internal.keys;

/**
 * Internal: an expression that does not parse, or names something the method does not have. The
 * message is {@code at position N: reason}, N 1-based; callers put the method, the annotation and
 * the expression in front.
 */
public final class ExpressionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** 0-based index into the expression. */
  private final int position;

  /** What is wrong, lower-case, without the position. */
  private final String reason;

  /**
   * Creates the exception.
   *
   * @param position 0-based index into the expression the problem is reported at
   * @param reason what was expected and what was found
   */
  public ExpressionException(int position, String reason) {
    super("at position " + (position + 1) + ": " + reason);
    this.position = position;
    this.reason = reason;
  }

  /** {@return the 0-based index into the expression} */
  public int position() {
    return position;
  }

  /** {@return what is wrong, without the position} */
  public String reason() {
    return reason;
  }
}
