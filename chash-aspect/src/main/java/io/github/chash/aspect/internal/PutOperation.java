package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCachePut;
import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ShardedCacheManager;
import java.lang.reflect.Method;

/** {@link ShardedCachePut}: run the method, then store its result (a null result evicts). */
public final class PutOperation extends CacheOperation {

  /**
   * Compiles the operation of a method.
   *
   * @throws IllegalStateException naming the method if the annotation is unusable
   */
  public PutOperation(Method method, ShardedCachePut annotation) {
    super(method, "@ShardedCachePut", annotation.cache(), annotation.key());
    if (method.getReturnType() == void.class) {
      throw new IllegalStateException(
          methodName + ": @ShardedCachePut on a void method has no result to store");
    }
  }

  @Override
  public Object invoke(Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable {
    ShardedCache cache = cache(manager);
    Object result = body.run();
    // After the call, like Spring's @CachePut: the method may have set the id the key reads.
    String routingKey = key.evaluate(args);
    if (kind == ReturnKind.FUTURE) {
      onSuccess(result, value -> write(cache, routingKey, value));
    } else {
      write(cache, routingKey, cachedValueOf(result));
    }
    return result;
  }

  private static void write(ShardedCache cache, String routingKey, Object value) {
    if (value == null) {
      cache.evict(routingKey);
    } else {
      cache.put(routingKey, value);
    }
  }
}
