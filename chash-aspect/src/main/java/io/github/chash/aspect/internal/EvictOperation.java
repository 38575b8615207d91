package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ShardedCacheManager;
import java.lang.reflect.Method;
import org.aspectj.lang.ProceedingJoinPoint;

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
  public Object invoke(ProceedingJoinPoint call, ShardedCacheManager manager) throws Throwable {
    ShardedCache cache = cache(manager);
    String routingKey = key.evaluate(call.getArgs());
    if (beforeInvocation) {
      cache.evict(routingKey);
      return call.proceed();
    }
    Object result = call.proceed();
    if (kind == ReturnKind.FUTURE) {
      onSuccess(result, value -> cache.evict(routingKey));
    } else {
      cache.evict(routingKey);
    }
    return result;
  }
}
