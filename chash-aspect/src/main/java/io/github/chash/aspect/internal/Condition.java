package io.github.chash.aspect.internal;

/**
 * A compiled {@code condition} or {@code unless} of one method. Like {@link KeyExpression}, it only
 * reads the arguments, the result and property handles resolved at compile time. Thread-safe.
 */
@FunctionalInterface
interface Condition {

  /**
   * Tests a call.
   *
   * @param args the call's arguments
   * @param result the method's result ({@code #result}), or null before the method ran
   * @throws KeyExpressionException if a property path meets a null, or a value is not what the
   *     expression needs (not true or false, not comparable)
   */
  boolean test(Object[] args, Object result);
}
