package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ShardedCacheManager;
import java.lang.reflect.Method;

/** {@link ShardedCacheEvict}: remove the call's key, before or after the method. */
public final class EvictOperation extends CacheOperation {
  private final boolean beforeInvocation;

  /**
   * Compiles the operation of a method.
   *
   * @throws IllegalStateException naming the method if the annotation is unusable
   */
  public EvictOperation(Method method, ShardedCacheEvict annotation) {
    super(method, "@ShardedCacheEvict", annotation.cache(), annotation.key());
    this.beforeInvocation = annotation.beforeInvocation();
  }

  @Override
  public Object invoke(Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable {
    ShardedCache cache = cache(manager);
    String routingKey = key.evaluate(args);
    if (beforeInvocation) {
      cache.evict(routingKey);
      return body.run();
    }
    Object result = body.run();
    if (kind == ReturnKind.FUTURE) {
      onSuccess(result, value -> cache.evict(routingKey));
    } else {
      cache.evict(routingKey);
    }
    return result;
  }
}
