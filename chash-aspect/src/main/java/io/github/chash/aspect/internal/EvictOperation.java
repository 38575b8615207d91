package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.keys.AnnotationRules;

/** {@link ShardedCacheEvict}: remove the call's key, or every entry, before or after the method. */
final class EvictOperation extends AnnotatedOperation {
  private final boolean beforeInvocation;
  private final boolean allEntries;

  EvictOperation(AdvisedMethod method, AnnotationRules.Checked checked) {
    super(method, checked);
    this.beforeInvocation = annotation.beforeInvocation();
    this.allEntries = annotation.allEntries();
  }

  @Override
  public Object invoke(Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable {
    InterceptedCache cache = InterceptedCache.of(cache(manager));
    if (beforeInvocation) {
      evict(cache, args, null);
      return body.run();
    }
    Object result = body.run();
    if (kind == ReturnKind.FUTURE) {
      onSuccess(result, value -> evict(cache, args, value));
    } else {
      evict(cache, args, cachedValueOf(result));
    }
    return result;
  }

  private void evict(InterceptedCache cache, Object[] args, Object result) {
    if (!applies(args, result)) {
      return;
    }
    if (allEntries) {
      cache.clear();
    } else {
      cache.evict(key.routingKey(cache, args, result));
    }
  }
}
