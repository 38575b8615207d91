package io.github.chash.aspect.internal;

import io.github.chash.internal.keys.Expression.Operator;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * What {@code == != < <= > >=} mean in a condition, for values only known per call:
 *
 * <ul>
 *   <li>{@code ==}/{@code !=} are null-safe; numbers are equal by value whatever their class
 *       ({@code 1 == 1L == 1.0}); a character equals the one-character string; an enum constant
 *       equals the string of its name; other values are compared with {@code equals}.
 *   <li>The orderings compare numbers by value, strings (and characters) by {@code compareTo},
 *       constants of one enum by declaration order, and two values of one {@code Comparable} class
 *       ({@code java.time} values by time) by {@code compareTo}; they are false when either side is
 *       null.
 * </ul>
 *
 * Stateless and thread-safe.
 */
final class Comparisons {
  private Comparisons() {}

  /** Whether {@code a op b} holds for an equality operator. */
  static boolean equal(Object a, Object b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a instanceof Number x && b instanceof Number y) {
      return numbers(Operator.EQ, x, y);
    }
    if (isText(a) && isText(b)) {
      return a.toString().equals(b.toString());
    }
    if (a instanceof Enum<?> e && b instanceof String s) {
      return e.name().equals(s);
    }
    if (b instanceof Enum<?> e && a instanceof String s) {
      return e.name().equals(s);
    }
    return a.equals(b);
  }

  /**
   * Whether {@code a op b} holds for an ordering operator; false when either is null.
   *
   * @return null if the two values cannot be ordered against each other
   */
  static Boolean order(Operator op, Object a, Object b) {
    if (a == null || b == null) {
      return Boolean.FALSE;
    }
    if (a instanceof Number x && b instanceof Number y) {
      return numbers(op, x, y);
    }
    int c;
    if (isText(a) && isText(b)) {
      c = a.toString().compareTo(b.toString());
    } else if (a instanceof Enum<?> x
        && b instanceof Enum<?> y
        && x.getDeclaringClass() == y.getDeclaringClass()) {
      c = Integer.compare(x.ordinal(), y.ordinal());
    } else if (a.getClass() == b.getClass() && a instanceof Comparable<?>) {
      @SuppressWarnings("unchecked")
      Comparable<Object> comparable = (Comparable<Object>) a;
      c = comparable.compareTo(b);
    } else {
      return null;
    }
    return holds(op, c);
  }

  /** Character and every CharSequence compare as their strings. */
  static boolean isText(Object value) {
    return value instanceof CharSequence || value instanceof Character;
  }

  private static boolean numbers(Operator op, Number a, Number b) {
    if (integral(a) && integral(b)) {
      return holds(op, Long.compare(a.longValue(), b.longValue()));
    }
    if (a instanceof Double || a instanceof Float || b instanceof Double || b instanceof Float) {
      // the Java operators themselves: NaN is equal to nothing, 0.0 == -0.0
      double x = a.doubleValue();
      double y = b.doubleValue();
      return switch (op) {
        case EQ -> x == y;
        case NE -> x != y;
        case LT -> x < y;
        case LE -> x <= y;
        case GT -> x > y;
        case GE -> x >= y;
      };
    }
    return holds(op, decimal(a).compareTo(decimal(b)));
  }

  private static boolean holds(Operator op, int c) {
    return switch (op) {
      case EQ -> c == 0;
      case NE -> c != 0;
      case LT -> c < 0;
      case LE -> c <= 0;
      case GT -> c > 0;
      case GE -> c >= 0;
    };
  }

  private static boolean integral(Number n) {
    return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte;
  }

  private static BigDecimal decimal(Number n) {
    if (n instanceof BigDecimal d) {
      return d;
    }
    if (n instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (integral(n)) {
      return BigDecimal.valueOf(n.longValue());
    }
    return new BigDecimal(n.toString());
  }
}
