package io.github.chash.spring.cache;

import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.RoutingKey;
import org.springframework.cache.interceptor.SimpleKey;

/**
 * Routing keys of the key objects Spring's cache abstraction produces, by chash's canonical rules,
 * so that a key reaches the node {@code @ShardedCacheable} sends it to.
 *
 * <p>The key of a call without a key expression comes from the interceptor's key generator. With
 * {@link ChashKeyGenerator} (which the starter registers), a method of one argument has the
 * argument as its key, routed by {@link InterceptedCache#key(Object, String)}; a method of several
 * arguments a {@link SimpleKey} whose arguments chash reads, routed as those arguments ({@link
 * InterceptedCache#keyOfArguments}), exactly as a {@code @ShardedCacheable} without a key
 * expression routes them; a method of none {@link SimpleKey#EMPTY}, routed as no arguments. Any
 * other key (a SpEL result, a custom generator's object) is routed by {@link
 * InterceptedCache#routingKey}. A plain {@link SimpleKey} of arguments, from Spring's default
 * {@code SimpleKeyGenerator}, is refused: its arguments are private (see {@link ChashKeyGenerator}
 * for why chash does not read them). Stateless and thread-safe.
 */
final class SpringKeys {
  private static final String[] NO_PARAMETER_NAMES = {};
  private static final Object[] NO_ARGUMENTS = {};

  private SpringKeys() {}

  /**
   * Returns the routing key of a Spring cache key in a cache.
   *
   * @param where the cache operation, for the message when the key has no stable form
   * @throws IllegalArgumentException if the key (or an argument in it) has no stable form, or is a
   *     {@link SimpleKey} of arguments not made by {@link ChashKeyGenerator}
   */
  static RoutingKey key(InterceptedCache cache, Object key, String where) {
    if (key instanceof ChashKeyGenerator.ArgumentsKey arguments) {
      return cache.keyOfArguments(arguments.arguments(), where, NO_PARAMETER_NAMES);
    }
    if (key instanceof SimpleKey) {
      if (SimpleKey.EMPTY.equals(key)) {
        return cache.keyOfArguments(NO_ARGUMENTS, where, NO_PARAMETER_NAMES);
      }
      throw new IllegalArgumentException(
          where
              + " has a key of several arguments from Spring's SimpleKeyGenerator, whose"
              + " arguments chash cannot read to route them as @ShardedCacheable does. Use chash's key generator: the Spring Boot"
              + " starter registers io.github.chash.spring.cache.ChashKeyGenerator unless the"
              + " application has its own CachingConfigurer, whose keyGenerator() should then"
              + " return new ChashKeyGenerator(); or give the annotation a key expression");
    }
    return cache.key(key, where);
  }
}
