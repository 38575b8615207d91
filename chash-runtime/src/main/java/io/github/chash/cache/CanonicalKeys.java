package io.github.chash.cache;

import io.github.chash.ring.RoutingKey;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.ZoneId;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAmount;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Turns key objects into canonical strings that every JVM computes identically, the {@code
 * canonicalKey} part of a routing key.
 *
 * <p>Forms (a key at the top level; inside a composite, strings are escaped as said below):
 *
 * <table>
 *   <caption>canonical forms</caption>
 *   <tr><th>key</th><th>form</th><th>example</th></tr>
 *   <tr><td>{@code null}</td><td>{@code null}</td><td>{@code null}</td></tr>
 *   <tr><td>{@code String}, any {@code CharSequence}, {@code Character}</td><td>the characters;
 *       a backslash before the first when the text is {@code null} or starts with one of {@code \
 *       ( [} or <code>&#123;</code> (see below)</td>
 *       <td>{@code alice}, {@code \null}, {@code \[a,b]}</td></tr>
 *   <tr><td>{@code Boolean}</td><td>{@code true} / {@code false}</td><td>{@code true}</td></tr>
 *   <tr><td>{@code Byte}, {@code Short}, {@code Integer}, {@code Long}, {@code BigInteger}</td>
 *       <td>decimal</td><td>{@code -42}</td></tr>
 *   <tr><td>{@code BigDecimal}, {@code Double}, {@code Float}</td>
 *       <td>plain decimal, no exponent, no trailing zeros; integral values as integers, so {@code 2},
 *       {@code 2L}, {@code 2.0} and {@code new BigDecimal("2.00")} are all {@code 2}; {@code -0.0} is
 *       {@code 0}; {@code NaN}, {@code Infinity}, {@code -Infinity}; a float uses its shortest
 *       decimal ({@code 0.1f} is {@code 0.1})</td><td>{@code 12.5}</td></tr>
 *   <tr><td>{@code UUID}</td><td>lower-case, hyphenated</td>
 *       <td>{@code 123e4567-e89b-12d3-a456-426614174000}</td></tr>
 *   <tr><td>enum constant</td><td>its {@code name()} alone (no class name: keys stay readable; two
 *       enums with equal constant names in one cache share forms)</td><td>{@code ACTIVE}</td></tr>
 *   <tr><td>{@code java.time} values ({@code Instant}, {@code LocalDate}, {@code
 *       OffsetDateTime}, {@code Duration}, {@code Period}, {@code ZoneId}...)</td>
 *       <td>ISO-8601, as their {@code toString()}</td><td>{@code 2024-03-01T10:15:30Z}</td></tr>
 *   <tr><td>{@code java.util.Date}</td><td>as its {@code Instant} (never the zone-dependent
 *       {@code Date.toString()})</td><td>{@code 2024-03-01T10:15:30Z}</td></tr>
 *   <tr><td>{@code Optional}</td><td>the content's form; {@code \empty} when empty</td>
 *       <td>{@code \empty}</td></tr>
 *   <tr><td>record</td><td>{@code (c1,c2,...)}: components in declaration order</td>
 *       <td>{@code (7,EUR)}</td></tr>
 *   <tr><td>{@code List}, other {@code Collection}, array</td><td>{@code [e1,e2,...]} in
 *       iteration order</td><td>{@code [1,2,3]}</td></tr>
 *   <tr><td>{@code Set}</td><td>{@code [e1,e2,...]} sorted by element form, so equal sets give
 *       equal keys whatever their iteration order</td><td>{@code [a,b]}</td></tr>
 *   <tr><td>{@code Map}</td><td>{@code {k1=v1,k2=v2}} sorted by key form</td>
 *       <td>{@code {a=1,b=2}}</td></tr>
 *   <tr><td>any other object whose class overrides {@code toString()}</td><td>its {@code
 *       toString()}</td><td></td></tr>
 * </table>
 *
 * <p>One rule keeps a text from reading as another form: a text that is {@code null} or starts with
 * one of {@code \ ( [} or <code>&#123;</code> gets a backslash before its first character; inside a
 * record, collection, array or map, so does every other {@code \ , = ( ) [ ] { }} in it. So {@code
 * "null"} ({@code \null}) differs from {@code null}, {@code "[a,b]"} ({@code \[a,b]}) from {@code
 * List.of("a", "b")} and from {@code new byte[] {1, 2}}'s {@code [1,2]}, {@code ["a,b"]} from
 * {@code ["a","b"]}, {@code (null, "x")} from {@code ("null", "x")}, and a single backslash
 * followed by a letter or a quote is a form no text has: {@code \empty} for an empty {@code
 * Optional}, {@code \"\"} for an empty text inside a composite ({@code [""]} is not {@code []}). A
 * text that needs none of this, the common key, keeps its characters as they are. Scalars carry no
 * type tag: {@code "42"} and {@code 42} share a key, as do {@code "true"} and {@code true}, a UUID
 * and its text, an enum constant and its name: a method's parameter has one type, so one method's
 * keys do not meet, and a tag would change the key of every string or every number already cached.
 *
 * <p>An object whose class keeps {@code Object.toString()} (the identity form {@code Class@hex},
 * different in every JVM) is rejected with an {@link IllegalArgumentException} naming the method
 * and parameter the caller describes ({@code where}, for example {@code
 * OrderService.find(customer)}) and the path of the offending component.
 *
 * <p>Cost: a string key is returned as is; other scalars cost one string; composites walk their
 * components, each class's form decided once, a record's components read through method handles
 * made once per record class ({@link RecordComponents}). Thread-safe (no state but those per-class
 * caches).
 */
public final class CanonicalKeys {
  /**
   * Deepest nesting of composites in a key: a collection that contains itself must not overflow the
   * stack.
   */
  static final int MAX_DEPTH = 100;

  /** The form of {@code null}; a text that reads so is marked ({@link #marked}). */
  static final String NULL = "null";

  /**
   * The form of an empty {@code Optional}: distinct from {@code null} (a method may be called with
   * either) and from every text: no text's form has an unescaped backslash before a letter.
   */
  static final String EMPTY = "\\empty";

  /**
   * The form of an empty text inside a composite, where nothing would tell {@code [""]} from {@code
   * []}; no text's form has an unescaped backslash before a quote.
   */
  static final String EMPTY_TEXT = "\\\"\\\"";

  /** Put before the first character of a text that would read as another form ({@link #marked}). */
  private static final char MARK = '\\';

  // The chars escaped inside a composite, \ , = ( ) [ ] { }, as bits: c in the low mask when
  // below 64, in the high one (shifted by c, which a long shift takes mod 64) when below 128.
  private static final long ESCAPED_LOW = 1L << '(' | 1L << ')' | 1L << ',' | 1L << '=';
  private static final long ESCAPED_HIGH =
      1L << ('[' - 64) | 1L << ('\\' - 64) | 1L << (']' - 64) | 1L << ('{' - 64) | 1L << ('}' - 64);

  /**
   * How instances of a class are written. Whether a key is a {@code CharSequence}, a record or a
   * {@code Set} depends on its class alone, so each class is classified once ({@link #FORMS}) in
   * the order of the table above, instead of a chain of type tests per key.
   */
  private enum Form {
    /** {@code toString()}, escaped inside a composite. */
    TEXT,
    INTEGRAL,
    /** {@code BigInteger}, {@code Boolean}, {@code UUID}: {@code toString()}, never escaped. */
    PLAIN,
    BIG_DECIMAL,
    DOUBLE,
    FLOAT,
    ENUM,
    DATE,
    OPTIONAL,
    RECORD,
    MAP,
    SET,
    COLLECTION,
    ARRAY,
    /** Keeps {@code Object.toString()}: rejected. */
    UNSTABLE
  }

  private static final ClassValue<Form> FORMS =
      new ClassValue<>() {
        @Override
        protected Form computeValue(Class<?> type) {
          return formOf(type);
        }
      };

  private CanonicalKeys() {}

  /**
   * {@return the canonical form of a key}
   *
   * @param key the key object, may be null
   * @param where what the key belongs to, for the error message, e.g. {@code
   *     OrderService.find(customer)}; compute it once, not per call
   * @throws IllegalArgumentException if the key, or a component of it, has no stable form
   */
  public static String of(Object key, String where) {
    String scalar = scalarForm(key);
    if (scalar != null) {
      return scalar;
    }
    StringBuilder out = new StringBuilder(32);
    appendTo(out, key, where);
    return out.toString();
  }

  /**
   * Returns {@code prefix + of(key, where)} as one string, for routing keys ({@code "users:"} and
   * the canonical key): a {@code String}, {@code Long} or {@code Integer} key costs the result
   * alone, with no intermediate string of the key's form.
   *
   * @param prefix the cache's prefix, e.g. {@code "users:"}
   * @param key the key object
   * @param where what the key belongs to, for the error message
   * @return the routing key
   * @throws IllegalArgumentException if the key, or a component of it, has no stable form
   */
  public static String prefixed(String prefix, Object key, String where) {
    // One string each: the concatenations compile to a single allocation of the result.
    if (key instanceof String s && !marked(s)) {
      return prefix.concat(s);
    }
    if (key instanceof Long l) {
      return prefix + l.longValue();
    }
    if (key instanceof Integer i) {
      return prefix + i.intValue();
    }
    String scalar = scalarForm(key);
    if (scalar != null) {
      return prefix.concat(scalar);
    }
    return appendTo(new StringBuilder(prefix.length() + 32).append(prefix), key, where).toString();
  }

  /**
   * {@return the routing key of {@code prefix} followed by {@code of(key, where)}} A {@code
   * String}, {@code Long} or {@code Integer} key's form goes straight into the routing key's bytes,
   * with no string of its own.
   *
   * @param prefix the cache's prefix as a routing key, e.g. {@code users:}
   * @param key the key object
   * @param where what the key belongs to, for the error message
   * @throws IllegalArgumentException if the key, or a component of it, has no stable form
   */
  public static RoutingKey routingKey(RoutingKey prefix, Object key, String where) {
    if (key instanceof String s && !marked(s)) {
      return prefix.concat(s);
    }
    if (key instanceof Long l) {
      return prefix.concat(l.longValue());
    }
    if (key instanceof Integer i) {
      return prefix.concat(i.longValue());
    }
    // any other form is written into a builder of this call's own and encoded from there, with no
    // string of its own. Not a per-thread buffer: with one, two threads' record hits took 145 or
    // 240 ns from run to run (HitPathBenchmark, floor 83 ns), most likely as the buffers, side by
    // side once a GC has copied them, had both threads write one cache line on every call.
    StringBuilder form = new StringBuilder(32);
    appendTo(form, key, where);
    return prefix.concat(form);
  }

  /**
   * Appends the canonical form of a key; {@link #of(Object, String)} without the intermediate
   * string.
   *
   * @param out where the canonical form is appended
   * @param key the key object, may be null
   * @param where what the key belongs to, for the error message, e.g. {@code
   *     OrderService.find(customer)}; compute it once, not per call
   * @return {@code out}
   * @throws IllegalArgumentException if the key, or a component of it, has no stable form
   */
  public static StringBuilder appendTo(StringBuilder out, Object key, String where) {
    try {
      append(out, key, 0);
      return out;
    } catch (Unstable e) {
      throw e.toException(where);
    }
  }

  /**
   * {@return the canonical form of a whole argument list, for a method whose key is all its
   * arguments: no arguments give the empty string, one argument its own form, several the
   * components' forms joined by {@code ,} (escaped as inside a composite)}
   *
   * @param args the arguments
   * @param method the method, for the error message, e.g. {@code OrderService.find}
   * @param parameterNames the parameter names, same length as {@code args}, for the error message
   * @throws IllegalArgumentException if an argument has no stable form, naming method and parameter
   */
  public static String ofArguments(Object[] args, String method, String[] parameterNames) {
    int i = 0;
    try {
      if (args.length == 0) {
        return "";
      }
      if (args.length == 1) {
        String scalar = scalarForm(args[0]);
        if (scalar != null) {
          return scalar;
        }
        StringBuilder out = new StringBuilder(32);
        append(out, args[0], 0);
        return out.toString();
      }
      StringBuilder out = new StringBuilder(16 * args.length);
      for (; i < args.length; i++) {
        if (i > 0) {
          out.append(',');
        }
        append(out, args[i], 1);
      }
      return out.toString();
    } catch (Unstable e) {
      String parameter = i < parameterNames.length ? parameterNames[i] : "arg" + i;
      throw e.toException(method + "(" + parameter + ")");
    }
  }

  /**
   * The form of a key that is not a composite, as it stands at the top level (unescaped), without a
   * builder; null for a composite or a key without a stable form, which {@link #append} writes or
   * rejects.
   */
  static String scalarForm(Object key) {
    if (key instanceof String s) {
      return topText(s);
    }
    return key == null ? NULL : scalarForm(key, FORMS.get(key.getClass()));
  }

  private static String scalarForm(Object key, Form form) {
    return switch (form) {
      case TEXT -> topText(key.toString());
      case INTEGRAL, PLAIN -> key.toString();
      case ENUM -> ((Enum<?>) key).name();
      case BIG_DECIMAL -> decimal((BigDecimal) key);
      case DOUBLE -> decimal((double) (Double) key);
      case FLOAT -> decimal((float) (Float) key);
      case DATE -> ((Date) key).toInstant().toString();
      case OPTIONAL, RECORD, MAP, SET, COLLECTION, ARRAY, UNSTABLE -> null;
    };
  }

  private static void append(StringBuilder out, Object key, int depth) {
    if (depth > MAX_DEPTH) {
      throw Unstable.tooDeep();
    }
    boolean top = depth == 0;
    if (key == null) {
      out.append(NULL);
      return;
    }
    if (key instanceof String s) { // the commonest component: its form without a class lookup
      appendText(out, s, top);
      return;
    }
    Form form = FORMS.get(key.getClass());
    switch (form) {
      case TEXT -> appendText(out, key.toString(), top);
      case ENUM -> appendText(out, ((Enum<?>) key).name(), top);
      // the digits straight into the builder: append(Object) would build the number's string
      case INTEGRAL -> out.append(((Number) key).longValue());
      // forms without the characters that inside a composite are escaped
      case PLAIN, BIG_DECIMAL, DOUBLE, FLOAT, DATE -> out.append(scalarForm(key, form));
      case OPTIONAL -> appendOptional(out, (Optional<?>) key, depth);
      case RECORD -> appendRecord(out, (Record) key, depth);
      case MAP -> appendMap(out, (Map<?, ?>) key, depth);
      case SET -> appendSorted(out, (Set<?>) key, depth);
      case COLLECTION -> appendSequence(out, (Collection<?>) key, depth);
      case ARRAY -> appendArray(out, key, depth);
      case UNSTABLE -> throw new Unstable(key);
    }
  }

  /** The form of a class's instances, by the first row of the table above that it matches. */
  private static Form formOf(Class<?> type) {
    if (CharSequence.class.isAssignableFrom(type) || type == Character.class) {
      return Form.TEXT;
    }
    if (type == Long.class || type == Integer.class || type == Short.class || type == Byte.class) {
      return Form.INTEGRAL;
    }
    if (BigInteger.class.isAssignableFrom(type) || type == Boolean.class || type == UUID.class) {
      return Form.PLAIN;
    }
    if (BigDecimal.class.isAssignableFrom(type)) {
      return Form.BIG_DECIMAL;
    }
    if (type == Double.class) {
      return Form.DOUBLE;
    }
    if (type == Float.class) {
      return Form.FLOAT;
    }
    if (Enum.class.isAssignableFrom(type)) {
      return Form.ENUM;
    }
    if (TemporalAccessor.class.isAssignableFrom(type)
        || TemporalAmount.class.isAssignableFrom(type)
        || ZoneId.class.isAssignableFrom(type)) {
      return Form.TEXT;
    }
    if (Date.class.isAssignableFrom(type)) {
      return Form.DATE;
    }
    if (type == Optional.class) {
      return Form.OPTIONAL;
    }
    if (Record.class.isAssignableFrom(type)) {
      return Form.RECORD;
    }
    if (Map.class.isAssignableFrom(type)) {
      return Form.MAP;
    }
    if (Set.class.isAssignableFrom(type)) {
      return Form.SET;
    }
    if (Collection.class.isAssignableFrom(type)) {
      return Form.COLLECTION;
    }
    if (type.isArray()) {
      return Form.ARRAY;
    }
    return hasOwnToString(type) ? Form.TEXT : Form.UNSTABLE;
  }

  private static boolean hasOwnToString(Class<?> type) {
    try {
      return type.getMethod("toString").getDeclaringClass() != Object.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private static void appendRecord(StringBuilder out, Record r, int depth) {
    RecordComponents.Component[] components = RecordComponents.of(r.getClass()).all;
    out.append('(');
    for (int i = 0; i < components.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      RecordComponents.Component component = components[i];
      if (component.integral) {
        out.append(component.readLong(r)); // the form of its boxed value, without the box
        continue;
      }
      try {
        append(out, component.read(r), depth + 1);
      } catch (Unstable e) {
        throw e.under("." + component.name);
      }
    }
    out.append(')');
  }

  private static void appendSequence(StringBuilder out, Collection<?> c, int depth) {
    out.append('[');
    int i = 0;
    for (Object element : c) {
      if (i > 0) {
        out.append(',');
      }
      try {
        append(out, element, depth + 1);
      } catch (Unstable e) {
        throw e.under("[" + i + "]");
      }
      i++;
    }
    out.append(']');
  }

  private static void appendArray(StringBuilder out, Object array, int depth) {
    int length = Array.getLength(array);
    out.append('[');
    for (int i = 0; i < length; i++) {
      if (i > 0) {
        out.append(',');
      }
      try {
        append(out, Array.get(array, i), depth + 1);
      } catch (Unstable e) {
        throw e.under("[" + i + "]");
      }
    }
    out.append(']');
  }

  private static void appendSorted(StringBuilder out, Set<?> set, int depth) {
    List<String> forms = new ArrayList<>(set.size());
    for (Object element : set) {
      forms.add(component(element, "[]", depth + 1));
    }
    forms.sort(null);
    out.append('[').append(String.join(",", forms)).append(']');
  }

  private static void appendMap(StringBuilder out, Map<?, ?> map, int depth) {
    List<String> entries = new ArrayList<>(map.size());
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String key = component(e.getKey(), "{key}", depth + 1);
      entries.add(key + "=" + component(e.getValue(), "{" + key + "}", depth + 1));
    }
    entries.sort(null);
    out.append('{').append(String.join(",", entries)).append('}');
  }

  private static String component(Object element, String pathOnError, int depth) {
    StringBuilder sb = new StringBuilder();
    try {
      append(sb, element, depth);
    } catch (Unstable e) {
      throw e.under(pathOnError);
    }
    return sb.toString();
  }

  private static void appendOptional(StringBuilder out, Optional<?> optional, int depth) {
    if (optional.isPresent()) {
      append(out, optional.get(), depth);
    } else {
      out.append(EMPTY);
    }
  }

  /**
   * Appends a text's form, by the one rule that keeps it from reading as another form: a backslash
   * before the first character of a text that is {@code null} or starts with {@code \ ( [} or
   * <code>&#123;</code> ({@link #marked}), and, inside a composite, before every other char of
   * {@link #escaped}.
   */
  private static void appendText(StringBuilder out, String text, boolean top) {
    if (top) {
      if (marked(text)) {
        out.append(MARK);
      }
      out.append(text);
      return;
    }
    if (text.isEmpty()) { // [""] is not [], nor ("") a record of no components
      out.append(EMPTY_TEXT);
      return;
    }
    if (text.equals(NULL)) { // the other marked texts start with an escaped char
      out.append(MARK);
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (escaped(c)) {
        out.append('\\');
      }
      out.append(c);
    }
  }

  /** {@link #appendText} at the top level, as a string. */
  private static String topText(String text) {
    return marked(text) ? MARK + text : text;
  }

  /**
   * Whether a text gets a backslash before its first character: it reads as {@code null}, as a
   * record, collection or map ({@code ( [} or <code>&#123;</code>), or as a marked form ({@code
   * \}). Cheap enough for every string key: one or two char reads.
   */
  static boolean marked(String text) {
    if (text.isEmpty()) {
      return false;
    }
    char c = text.charAt(0);
    return c == '\\' || c == '(' || c == '[' || c == '{' || c == 'n' && text.equals(NULL);
  }

  /** Whether a string form's char is escaped with a backslash inside a composite. */
  static boolean escaped(char c) {
    return c < 128 && ((c < 64 ? ESCAPED_LOW : ESCAPED_HIGH) >>> c & 1) != 0;
  }

  static String decimal(BigDecimal d) {
    return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
  }

  static String decimal(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return Double.toString(d);
    }
    if (d == Math.rint(d) && Math.abs(d) < 0x1p53) {
      return Long.toString((long) d);
    }
    return decimal(BigDecimal.valueOf(d));
  }

  static String decimal(float f) {
    if (Float.isNaN(f) || Float.isInfinite(f)) {
      return Float.toString(f);
    }
    if (f == Math.rint(f) && Math.abs(f) < 0x1p24f) {
      return Long.toString((long) f);
    }
    return decimal(new BigDecimal(Float.toString(f)));
  }

  /** A component without a stable form; carries the path to it while the recursion unwinds. */
  private static final class Unstable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Object offender; // null: nested too deep
    private final transient Deque<String> path = new ArrayDeque<>();

    Unstable(Object offender) {
      super(null, null, false, false);
      this.offender = offender;
    }

    static Unstable tooDeep() {
      return new Unstable(null);
    }

    Unstable under(String segment) {
      path.addFirst(segment);
      return this;
    }

    IllegalArgumentException toException(String where) {
      if (offender == null) {
        return new IllegalArgumentException(
            "key of "
                + where
                + " nests deeper than "
                + MAX_DEPTH
                + " levels of records, collections, arrays or maps; does a collection contain"
                + " itself?");
      }
      Class<?> type = offender.getClass();
      String identity =
          type.getName() + "@" + Integer.toHexString(System.identityHashCode(offender));
      String what =
          path.isEmpty() ? "the key" : "component " + String.join("", path) + " of the key";
      return new IllegalArgumentException(
          "key of "
              + where
              + " has no stable string form: "
              + what
              + " is a "
              + type.getName()
              + ", which does not override toString(), so its form ("
              + identity
              + ") differs between JVMs; use a key expression naming a stable property, or"
              + " override toString()");
    }
  }
}
