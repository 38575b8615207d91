package io.github.chash.aspect.internal;

import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.RoutingKey;

/**
 * A compiled key expression of one method: turns the call's arguments (and, where the key may use
 * it, the result) into the routing key.
 *
 * <p>Evaluation does no parsing, reflection lookup or varargs work; it only reads the arguments
 * (and property handles resolved at compile time) and builds the key. Thread-safe.
 */
@FunctionalInterface
public interface KeyExpression {

  /**
   * {@return the routing key of a call, as text}
   *
   * @param args the call's arguments, as the join point gives them
   * @param result the method's result ({@code #result}), or null before the method ran
   * @throws KeyExpressionException if a property path meets a null or a class without the property
   * @throws IllegalArgumentException if a key part has no stable string form
   */
  String evaluate(Object[] args, Object result);

  /**
   * Returns the routing key of a call, made once for the whole operation on {@code cache}: the
   * text's by default; a lone {@code #p0} has the cache make it from its prefix and the argument,
   * with no string in between.
   *
   * @param cache the cache the operation uses
   * @param args the call's arguments
   * @param result the method's result, or null before the method ran
   * @throws KeyExpressionException as {@link #evaluate(Object[], Object)}
   */
  default RoutingKey routingKey(InterceptedCache cache, Object[] args, Object result) {
    return RoutingKey.of(evaluate(args, result));
  }

  /**
   * {@link #routingKey(InterceptedCache, Object[], Object)} for a method whose one parameter is an
   * object, without an argument array when the key allows (a lone {@code #p0}).
   */
  default RoutingKey routingKeyOfOne(InterceptedCache cache, Object onlyArgument) {
    return routingKey(cache, new Object[] {onlyArgument}, null);
  }

  /**
   * {@link #routingKey(InterceptedCache, Object[], Object)} for a method whose one parameter is a
   * {@code long}, without boxing it when the key allows (a lone {@code #p0}); any other key reads
   * the boxed argument.
   */
  default RoutingKey routingKey(InterceptedCache cache, long onlyArgument) {
    return routingKey(cache, new Object[] {onlyArgument}, null);
  }
}
