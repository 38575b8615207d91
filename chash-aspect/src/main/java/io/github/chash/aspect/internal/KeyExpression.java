package io.github.chash.aspect.internal;

import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;

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

  /**
   * Returns the routing key of a call of a method whose one parameter is a {@code long}, without
   * boxing it when the key allows (a lone {@code #p0}); any other key reads the boxed argument.
   *
   * @throws KeyExpressionException as {@link #evaluate(Object[], Object)}
   */
  default String evaluate(long onlyArgument) {
    return evaluate(new Object[] {onlyArgument}, null);
  }

  /**
   * Looks the call's key up: {@code cache.getIfPresent(evaluate(args, null), type)}, which a key of
   * one parameter may do without building the routing key.
   */
  default Object lookup(InterceptedCache cache, Object[] args, ValueType type) {
    return cache.getIfPresent(evaluate(args, null), type);
  }

  /**
   * {@link #lookup(InterceptedCache, Object[], ValueType)} for a method whose one parameter is an
   * object, without an argument array when the key allows (a lone {@code #p0}).
   */
  default Object lookupOne(InterceptedCache cache, Object onlyArgument, ValueType type) {
    return lookup(cache, new Object[] {onlyArgument}, type);
  }

  /** {@link #lookup(ShardedCache, Object[], ValueType)} for {@link #evaluate(long)}. */
  default Object lookup(InterceptedCache cache, long onlyArgument, ValueType type) {
    return cache.getIfPresent(evaluate(onlyArgument), type);
  }
}
