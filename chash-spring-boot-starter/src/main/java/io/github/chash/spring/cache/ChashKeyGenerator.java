package io.github.chash.spring.cache;

import java.lang.reflect.Method;
import java.util.Arrays;
import org.springframework.cache.interceptor.KeyGenerator;
import org.springframework.cache.interceptor.SimpleKey;
import org.springframework.cache.interceptor.SimpleKeyGenerator;

/**
 * Spring's {@link SimpleKeyGenerator}, with keys chash can route: the key of a call without a key
 * expression. The Spring Boot starter makes it the key generator of Spring's cache interceptor
 * unless the application has its own {@code CachingConfigurer}; a plain Spring application, or one
 * with its own configurer, returns it from {@code CachingConfigurer.keyGenerator()}:
 *
 * <pre>{@code
 * @Configuration
 * @EnableCaching
 * class CachingSetup implements CachingConfigurer {
 *   @Override
 *   public KeyGenerator keyGenerator() {
 *     return new ChashKeyGenerator();
 *   }
 * }
 * }</pre>
 *
 * <p>The keys are the ones {@link SimpleKeyGenerator} makes: the argument itself for a method of
 * one argument that is neither {@code null} nor an array, {@link SimpleKey#EMPTY} for none, and
 * otherwise a {@link SimpleKey} of the arguments, here a subclass that also lets chash read them.
 * That key is equal to the {@link SimpleKey} of the same arguments, with the same hash code and the
 * same {@code toString()}, so any other cache of the application (a Caffeine or Redis cache manager
 * beside chash's) sees exactly the keys it saw before.
 *
 * <p>Why a key generator: {@link SimpleKey} keeps its arguments private and has no accessor, and
 * chash must route a key of several arguments by those arguments (joined by its canonical key
 * rules) to agree with {@code @ShardedCacheable}, which routes the same arguments so. Reading the
 * private field by reflection depends on an implementation detail of each Spring version; its
 * {@code toString()} loses the arguments' types and chash's canonical forms. {@link ChashCache}
 * therefore refuses a plain {@link SimpleKey} of arguments with an error saying how to register
 * this generator. Stateless and thread-safe.
 */
public final class ChashKeyGenerator implements KeyGenerator {

  /** Creates the generator. */
  public ChashKeyGenerator() {}

  @Override
  public Object generate(Object target, Method method, Object... params) {
    return generateKey(params);
  }

  /**
   * {@return the key of the arguments, as {@link SimpleKeyGenerator#generateKey} makes it, with the
   * arguments readable by chash}
   *
   * @param params the call's arguments
   */
  public static Object generateKey(Object... params) {
    if (params.length == 0) {
      return SimpleKey.EMPTY;
    }
    if (params.length == 1) {
      Object param = params[0];
      if (param != null && !param.getClass().isArray()) {
        return param;
      }
    }
    return new ArgumentsKey(params);
  }

  /**
   * A {@link SimpleKey} whose arguments chash can read: equal to the {@link SimpleKey} of the same
   * arguments, same hash code, same {@code toString()}.
   */
  static final class ArgumentsKey extends SimpleKey {
    private static final long serialVersionUID = 1L;

    /** The arguments, as SimpleKey keeps them (a copy of the caller's array). */
    private final Object[] arguments;

    ArgumentsKey(Object... arguments) {
      super(arguments);
      this.arguments = arguments.clone();
    }

    /** {@return the arguments; the caller does not modify the array} */
    Object[] arguments() {
      return arguments;
    }

    /** The string a {@link SimpleKey} of the same arguments has, for caches keyed by strings. */
    @Override
    public String toString() {
      return SimpleKey.class.getSimpleName() + " " + Arrays.deepToString(arguments);
    }
  }
}
