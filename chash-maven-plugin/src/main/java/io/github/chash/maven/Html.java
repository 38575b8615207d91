package io.github.chash.maven;

/**
 * A small HTML and SVG writer that escapes by construction: text and attribute values can only be
 * added through methods that escape them, tag and attribute names are checked against a plain
 * pattern, and a style sheet may not contain {@code </}. So no value from a configuration (a node
 * id, a key pattern) can add markup. Not thread-safe.
 */
final class Html {
  private final StringBuilder out;

  /** An empty writer with room for about {@code capacity} characters. */
  Html(int capacity) {
    out = new StringBuilder(capacity);
  }

  /** {@code <!DOCTYPE html>} and a line break. */
  Html doctype() {
    out.append("<!DOCTYPE html>\n");
    return this;
  }

  /**
   * Opens an element.
   *
   * @param attributes name, value, name, value...; a null value leaves the attribute out
   */
  Html open(String tag, String... attributes) {
    start(tag, attributes);
    out.append('>');
    return this;
  }

  /** Closes an element. */
  Html close(String tag) {
    out.append("</").append(name(tag)).append('>');
    return this;
  }

  /** An element without content: {@code <rect ... />}. */
  Html empty(String tag, String... attributes) {
    start(tag, attributes);
    out.append("/>");
    return this;
  }

  /** An element holding text only. */
  Html element(String tag, String text, String... attributes) {
    return open(tag, attributes).text(text).close(tag);
  }

  /** A table cell whose end tag is implied by the next cell or row (keeps large tables small). */
  Html cell(String text, String... attributes) {
    return open("td", attributes).text(text);
  }

  /** Text, escaped. */
  Html text(String text) {
    escape(text, false);
    return this;
  }

  /** A line break in the source, for readable output. */
  Html newline() {
    out.append('\n');
    return this;
  }

  /**
   * A style sheet. It is the page's own constant, never data; it still may not close the element.
   *
   * @throws IllegalArgumentException if it contains {@code </}
   */
  Html style(String css) {
    if (css.contains("</")) {
      throw new IllegalArgumentException("a style sheet must not contain </");
    }
    out.append("<style>").append(css).append("</style>");
    return this;
  }

  /** Appends what another writer built (escaped when it was built). */
  Html append(Html other) {
    out.append(other.out);
    return this;
  }

  /** The characters written so far. */
  int length() {
    return out.length();
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private void start(String tag, String[] attributes) {
    if (attributes.length % 2 != 0) {
      throw new IllegalArgumentException("attributes come in name, value pairs: " + tag);
    }
    out.append('<').append(name(tag));
    for (int i = 0; i < attributes.length; i += 2) {
      if (attributes[i + 1] == null) {
        continue;
      }
      out.append(' ').append(name(attributes[i])).append("=\"");
      escape(attributes[i + 1], true);
      out.append('"');
    }
  }

  /** A tag or attribute name: a letter, then letters, digits, {@code :} or {@code -}. */
  private static String name(String name) {
    boolean valid = !name.isEmpty() && isLetter(name.charAt(0));
    for (int i = 1; valid && i < name.length(); i++) {
      char c = name.charAt(i);
      valid = isLetter(c) || (c >= '0' && c <= '9') || c == ':' || c == '-';
    }
    if (!valid) {
      throw new IllegalArgumentException("not a tag or attribute name: " + name);
    }
    return name;
  }

  private static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private void escape(String s, boolean attribute) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append(attribute ? "&quot;" : "\"");
        default -> out.append(c);
      }
    }
  }
}
