package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCachePut;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.keys.AnnotationRules;
import io.github.chash.internal.keys.AnnotationRules.Attribute;
import io.github.chash.ring.RoutingKey;

/**
 * {@link ShardedCachePut}: run the method, then store its result (a null result, or one {@code
 * unless} refuses, evicts).
 */
final class PutOperation extends AnnotatedOperation {
  private final Condition unless;

  PutOperation(AdvisedMethod method, AnnotationRules.Checked checked) {
    super(method, checked);
    this.unless = compile(Attribute.UNLESS, checked.unless());
  }

  @Override
  public Object invoke(Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable {
    InterceptedCache cache = InterceptedCache.of(cache(manager));
    Object result = body.run();
    if (kind == ReturnKind.FUTURE) {
      onSuccess(result, value -> write(cache, args, value));
    } else {
      write(cache, args, cachedValueOf(result));
    }
    return result;
  }

  /** After the call, like Spring's @CachePut: the key may read an id the method set or returned. */
  private void write(InterceptedCache cache, Object[] args, Object value) {
    if (!applies(args, value)) {
      return;
    }
    RoutingKey routingKey = key.routingKey(cache, args, value);
    if (value == null || (unless != null && unless.test(args, value))) {
      // what was cached under the key is older than this update: never serve it
      cache.evict(routingKey);
    } else {
      cache.put(routingKey, value);
    }
  }
}
