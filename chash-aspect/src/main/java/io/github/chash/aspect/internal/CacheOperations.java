package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.aspect.ShardedCachePut;
import io.github.chash.aspect.ShardedCacheable;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The compiled operations of every annotated method, one per method and annotation, built at the
 * method's first call. A method whose annotation does not compile is not recorded, so each call
 * fails with the same message. Thread-safe.
 */
public final class CacheOperations {
  private static final ConcurrentHashMap<Method, CacheOperation> CACHEABLE =
      new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<Method, CacheOperation> PUT = new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<Method, CacheOperation> EVICT = new ConcurrentHashMap<>();

  private CacheOperations() {}

  /** The {@link ShardedCacheable} operation of a method that carries the annotation. */
  public static CacheOperation cacheable(Method method) {
    CacheOperation op = CACHEABLE.get(method);
    return op != null ? op : compile(CACHEABLE, method, CacheOperations::newCacheable);
  }

  /** The {@link ShardedCachePut} operation of a method that carries the annotation. */
  public static CacheOperation put(Method method) {
    CacheOperation op = PUT.get(method);
    return op != null ? op : compile(PUT, method, CacheOperations::newPut);
  }

  /** The {@link ShardedCacheEvict} operation of a method that carries the annotation. */
  public static CacheOperation evict(Method method) {
    CacheOperation op = EVICT.get(method);
    return op != null ? op : compile(EVICT, method, CacheOperations::newEvict);
  }

  private static CacheOperation compile(
      ConcurrentHashMap<Method, CacheOperation> ops,
      Method method,
      Function<Method, CacheOperation> compiler) {
    // Not computeIfAbsent: compiling may throw, and must not hold the map's bin lock.
    CacheOperation op = compiler.apply(method);
    CacheOperation raced = ops.putIfAbsent(method, op);
    return raced != null ? raced : op;
  }

  private static CacheOperation newCacheable(Method m) {
    return new CacheableOperation(m, m.getAnnotation(ShardedCacheable.class));
  }

  private static CacheOperation newPut(Method m) {
    return new PutOperation(m, m.getAnnotation(ShardedCachePut.class));
  }

  private static CacheOperation newEvict(Method m) {
    return new EvictOperation(m, m.getAnnotation(ShardedCacheEvict.class));
  }
}
