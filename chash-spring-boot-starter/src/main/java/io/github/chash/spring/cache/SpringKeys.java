package io.github.chash.spring.cache;

import io.github.chash.cache.ShardedCache;
import io.github.chash.internal.cache.InterceptedCache;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.springframework.cache.interceptor.SimpleKey;

/**
 * Routing keys of the key objects Spring's cache abstraction produces, by chash's canonical rules,
 * so that a key reaches the node {@code @ShardedCacheable} sends it to.
 *
 * <p>Spring's default {@code SimpleKeyGenerator} returns the argument itself for a method of one
 * (non-null, non-array) argument, and a {@link SimpleKey} of all arguments otherwise. A {@link
 * SimpleKey} is routed as its arguments ({@link ShardedCache#routingKeyOfArguments}), exactly as a
 * {@code @ShardedCacheable} without a key expression routes the same arguments; any other key (an
 * argument, a SpEL result, a custom generator's object) is routed by {@link
 * ShardedCache#routingKey}. Stateless and thread-safe.
 */
final class SpringKeys {
  private static final String[] NO_PARAMETER_NAMES = {};

  /**
   * SimpleKey keeps its arguments in a private field and has no accessor; reading the field is the
   * only way to route them like the aspect does. Null when this Spring version lacks it.
   */
  private static final VarHandle SIMPLE_KEY_PARAMS = simpleKeyParams();

  private SpringKeys() {}

  /** Whether {@link SimpleKey} keys can be routed by their arguments on this Spring version. */
  static boolean simpleKeysReadable() {
    return SIMPLE_KEY_PARAMS != null;
  }

  /**
   * Returns the routing key of a Spring cache key in a cache.
   *
   * @param where the cache operation, for the message when the key has no stable form
   * @throws IllegalArgumentException if the key (or an argument in it) has no stable form
   */
  static String routingKey(InterceptedCache cache, Object key, String where) {
    if (key instanceof SimpleKey simple) {
      return cache.routingKeyOfArguments(arguments(simple), where, NO_PARAMETER_NAMES);
    }
    return cache.routingKey(key, where);
  }

  private static Object[] arguments(SimpleKey key) {
    if (SIMPLE_KEY_PARAMS == null) {
      throw new IllegalStateException(
          "cannot read the arguments of Spring's SimpleKey on this Spring version (no field"
              + " params); chash routes them by its canonical key rules");
    }
    return (Object[]) SIMPLE_KEY_PARAMS.get(key);
  }

  private static VarHandle simpleKeyParams() {
    try {
      return MethodHandles.privateLookupIn(SimpleKey.class, MethodHandles.lookup())
          .findVarHandle(SimpleKey.class, "params", Object[].class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
