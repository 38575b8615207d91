package io.github.chash.aspect.internal;

import io.github.chash.cache.ShardedCacheManager;
import java.util.List;

/**
 * Several annotations on one method, each wrapped around the next: evictions outermost, then puts,
 * then cacheables, each kind in declaration order. So an eviction after the method sees the result
 * whether it came from the cache or the method; of several cacheables the first that holds the key
 * answers, and the ones before it store what it returned. Thread-safe.
 */
final class LayeredOperation extends CacheOperation {
  private final AnnotatedOperation[] layers;

  /**
   * @param layers outermost first, at least two
   */
  LayeredOperation(List<AnnotatedOperation> layers) {
    this.layers = layers.toArray(new AnnotatedOperation[0]);
  }

  @Override
  public Object invoke(Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable {
    return invokeFrom(0, args, body, manager);
  }

  private Object invokeFrom(int layer, Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable {
    if (layer == layers.length - 1) {
      return layers[layer].invoke(args, body, manager);
    }
    return layers[layer].invoke(args, () -> invokeFrom(layer + 1, args, body, manager), manager);
  }
}
