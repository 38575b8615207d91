package io.github.chash.internal.text;

/** Text quoted for an error message, the one form every message of chash uses. */
public final class Quotes {
  // long enough for any key or duration a person writes, short enough for one message line
  private static final int MAX_QUOTED = 60;

  private Quotes() {}

  /**
   * {@return the text quoted for a message, quotes and control characters escaped, long text
   * shortened}
   *
   * @param text the text
   */
  public static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    int n = Math.min(text.length(), MAX_QUOTED);
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    if (text.length() > MAX_QUOTED) {
      out.append("...");
    }
    return out.append('"').toString();
  }
}
