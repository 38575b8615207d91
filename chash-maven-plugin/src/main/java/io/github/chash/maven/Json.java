package io.github.chash.maven;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * A small JSON writer that escapes by construction: names and strings go through one escaping
 * method, numbers through one formatting method (NaN and infinities as {@code null}), and the
 * writer places every comma, bracket and indent. Objects are written one member a line, or on one
 * line ({@link #beginInlineObject}) for the many small objects of a node list. Not thread-safe.
 */
final class Json {
  private final StringBuilder out = new StringBuilder(4096);

  /** Per open container: whether it is inline, and whether it has a member yet. */
  private final Deque<boolean[]> open = new ArrayDeque<>();

  /** Opens the document's object. */
  static Json document() {
    Json json = new Json();
    json.out.append('{');
    json.open.push(new boolean[] {false, false});
    return json;
  }

  /** Opens an object member ({@code name} null inside an array). */
  Json beginObject(String name) {
    return begin(name, '{', false);
  }

  /** Opens an object written on one line. */
  Json beginInlineObject(String name) {
    return begin(name, '{', true);
  }

  /** Opens an array member ({@code name} null inside an array). */
  Json beginArray(String name) {
    return begin(name, '[', false);
  }

  /** Closes the innermost object or array. */
  Json end(char close) {
    boolean[] container = open.pop();
    if (container[1] && !container[0]) {
      newline();
    }
    out.append(close);
    return this;
  }

  /** Closes an object. */
  Json endObject() {
    return end('}');
  }

  /** Closes an array. */
  Json endArray() {
    return end(']');
  }

  /** A string member; null is written as {@code null}. */
  Json string(String name, String value) {
    member(name);
    if (value == null) {
      out.append("null");
    } else {
      quote(value);
    }
    return this;
  }

  /** A number member; NaN and infinities (not measured, unbounded) are written as {@code null}. */
  Json number(String name, double value) {
    member(name);
    out.append(Double.isFinite(value) ? Double.toString(value) : "null");
    return this;
  }

  /** A number member that may be absent (null). */
  Json number(String name, Double value) {
    return value == null ? string(name, null) : number(name, value.doubleValue());
  }

  /** An integer member. */
  Json integer(String name, long value) {
    member(name);
    out.append(value);
    return this;
  }

  /** A boolean member. */
  Json bool(String name, boolean value) {
    member(name);
    out.append(value);
    return this;
  }

  /** The document, closed. */
  String finish() {
    while (!open.isEmpty()) {
      end('}');
    }
    return out.append('\n').toString();
  }

  private Json begin(String name, char bracket, boolean inline) {
    member(name);
    out.append(bracket);
    open.push(new boolean[] {inline || inline(), false});
    return this;
  }

  private boolean inline() {
    return !open.isEmpty() && open.peek()[0];
  }

  private void member(String name) {
    boolean[] container = open.peek();
    if (container[1]) {
      out.append(',');
    }
    if (container[0]) {
      if (container[1]) {
        out.append(' ');
      }
    } else {
      newline();
    }
    container[1] = true;
    if (name != null) {
      quote(name);
      out.append(": ");
    }
  }

  private void newline() {
    out.append('\n').append("  ".repeat(open.size()));
  }

  private void quote(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
