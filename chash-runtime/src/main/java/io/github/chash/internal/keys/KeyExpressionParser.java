package io.github.chash.internal.keys;

/**
 * Internal: reads the syntax of a key expression and hands its parts, in order, to a {@link
 * Listener}. Not part of the API; it may change in any release.
 *
 * <p>Grammar: {@code expr := term ('+' term)*}; {@code term := '#' name ('.' property)* | quoted
 * literal}, white space allowed around {@code +}. Names and properties are Java identifiers;
 * literals are in single quotes, {@code ''} standing for one quote. What a name means (a parameter
 * by name, {@code #p0}/{@code #a0} by index) is the listener's business.
 *
 * <p>Linear in the length of the text. Stateless and thread-safe; a listener sees one parse.
 */
public final class KeyExpressionParser {
  private final String text;
  private final Listener listener;
  private int pos;

  private KeyExpressionParser(String text, Listener listener) {
    this.text = text;
    this.listener = listener;
  }

  /**
   * Receives the parts of one expression in text order. Positions are 0-based indexes into the
   * text; messages are lower-case and say what was expected and what was found. Any callback may
   * throw to stop the parse.
   */
  public interface Listener {
    /**
     * A quoted literal.
     *
     * @param value the literal without its quotes, {@code ''} already turned into {@code '}
     * @param start index of the opening quote
     */
    void literal(String value, int start);

    /**
     * A {@code #name}; its properties, if any, follow as {@link #property} calls.
     *
     * @param name the name after {@code #}
     * @param start index of the {@code #}
     */
    void parameter(String name, int start);

    /**
     * A {@code .property} of the last parameter (or of the property before it).
     *
     * @param name the property name
     * @param start index of the name's first character
     */
    void property(String name, int start);

    /**
     * Makes the exception thrown for a syntax error.
     *
     * @param start index the error is reported at
     * @param message what was expected and what was found
     * @return the exception to throw
     */
    RuntimeException error(int start, String message);
  }

  /**
   * Parses an expression, calling the listener for each part.
   *
   * @param text the expression, not empty (an empty key is the caller's special case)
   * @param listener receives the parts
   * @throws RuntimeException the listener's {@link Listener#error} on a syntax error, or whatever a
   *     callback throws
   */
  public static void parse(String text, Listener listener) {
    new KeyExpressionParser(text, listener).expression();
  }

  private void expression() {
    skipSpaces();
    term();
    skipSpaces();
    while (pos < text.length()) {
      if (text.charAt(pos) != '+') {
        throw listener.error(pos, "expected '+' or the end, found '" + text.charAt(pos) + "'");
      }
      pos++;
      skipSpaces();
      term();
      skipSpaces();
    }
  }

  private void term() {
    if (pos >= text.length()) {
      throw listener.error(pos, "expected '#parameter' or a quoted literal, found the end");
    }
    char c = text.charAt(pos);
    if (c == '\'') {
      literal();
    } else if (c == '#') {
      parameter();
    } else {
      throw listener.error(pos, "expected '#parameter' or a quoted literal, found '" + c + "'");
    }
  }

  private void literal() {
    int start = pos;
    pos++;
    StringBuilder value = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw listener.error(start, "unterminated literal; close it with '");
      }
      char c = text.charAt(pos++);
      if (c == '\'') {
        if (pos < text.length() && text.charAt(pos) == '\'') {
          value.append('\'');
          pos++;
        } else {
          break;
        }
      } else {
        value.append(c);
      }
    }
    listener.literal(value.toString(), start);
  }

  private void parameter() {
    int start = pos;
    pos++;
    listener.parameter(identifier("a parameter name after '#'"), start);
    while (pos < text.length() && text.charAt(pos) == '.') {
      pos++;
      int propertyStart = pos;
      listener.property(identifier("a property name after '.'"), propertyStart);
    }
  }

  private String identifier(String what) {
    int start = pos;
    if (pos >= text.length() || !Character.isJavaIdentifierStart(text.charAt(pos))) {
      throw listener.error(
          start,
          "expected "
              + what
              + ", found "
              + (pos >= text.length() ? "the end" : "'" + text.charAt(pos) + "'"));
    }
    pos++;
    while (pos < text.length() && Character.isJavaIdentifierPart(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }
}
