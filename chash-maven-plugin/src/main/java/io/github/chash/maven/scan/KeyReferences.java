package io.github.chash.maven.scan;

import java.util.ArrayList;
import java.util.List;

/**
 * The parameters a key expression names, with their positions; the same grammar as the aspect's
 * compiler ({@code #name}, {@code #p0}/{@code #a0}, property paths, quoted literals, {@code +}),
 * re-stated here because the plugin never loads the aspect.
 */
final class KeyReferences {
  /** A {@code #name} at a 1-based position. */
  record Reference(String name, int position) {}

  private final String text;
  private final List<Reference> references = new ArrayList<>();
  private int pos;

  private KeyReferences(String text) {
    this.text = text;
  }

  /**
   * Returns the parameter references of an expression.
   *
   * @throws IllegalArgumentException with {@code at position N: ...} on a syntax error
   */
  static List<Reference> of(String expression) {
    KeyReferences parser = new KeyReferences(expression);
    parser.parse();
    return parser.references;
  }

  private void parse() {
    skipSpaces();
    term();
    skipSpaces();
    while (pos < text.length()) {
      if (text.charAt(pos) != '+') {
        throw error(pos, "expected '+' or the end, found '" + text.charAt(pos) + "'");
      }
      pos++;
      skipSpaces();
      term();
      skipSpaces();
    }
  }

  private void term() {
    if (pos >= text.length()) {
      throw error(pos, "expected '#parameter' or a quoted literal, found the end");
    }
    char c = text.charAt(pos);
    if (c == '\'') {
      int start = pos++;
      while (true) {
        if (pos >= text.length()) {
          throw error(start, "unterminated literal; close it with '");
        }
        if (text.charAt(pos++) == '\'') {
          if (pos < text.length() && text.charAt(pos) == '\'') {
            pos++;
          } else {
            return;
          }
        }
      }
    }
    if (c != '#') {
      throw error(pos, "expected '#parameter' or a quoted literal, found '" + c + "'");
    }
    int start = pos++;
    references.add(new Reference(identifier("a parameter name after '#'"), start + 1));
    while (pos < text.length() && text.charAt(pos) == '.') {
      pos++;
      identifier("a property name after '.'");
    }
  }

  private String identifier(String what) {
    int start = pos;
    if (pos >= text.length() || !Character.isJavaIdentifierStart(text.charAt(pos))) {
      throw error(
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

  private IllegalArgumentException error(int index, String message) {
    return new IllegalArgumentException("at position " + (index + 1) + ": " + message);
  }
}
