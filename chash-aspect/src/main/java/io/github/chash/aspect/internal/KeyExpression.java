package io.github.chash.aspect.internal;

/**
 * A compiled key expression of one method: turns the call's arguments (and, where the key may use
 * it, the result) into the routing key.
 *
 * <p>Evaluation does no parsing, reflection lookup or varargs work; it only reads the arguments
 * (and property handles resolved at compile time) and builds the string. Thread-safe.
 */
@FunctionalInterface
public interface KeyExpression {

  /**
   * {@return the routing key of a call}
   *
   * @param args the call's arguments, as the join point gives them
   * @param result the method's result ({@code #result}), or null before the method ran
   * @throws KeyExpressionException if a property path meets a null or a class without the property
   * @throws IllegalArgumentException if a key part has no stable string form
   */
  String evaluate(Object[] args, Object result);
}
