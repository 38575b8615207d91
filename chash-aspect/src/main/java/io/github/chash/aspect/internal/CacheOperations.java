package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.aspect.ShardedCachePut;
import io.github.chash.aspect.ShardedCacheable;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The compiled operations of every annotated method, one per method and annotation, built at the
 * method's first call. A method whose annotation does not compile is not recorded, so each call
 * fails with the same message. Thread-safe.
 */
public final class CacheOperations {
  // Per declaring class (ClassValue), so that an application's classes can still be unloaded.
  private static final PerClass CACHEABLE = new PerClass();
  private static final PerClass PUT = new PerClass();
  private static final PerClass EVICT = new PerClass();

  /** The operations of one class's methods. */
  private static final class PerClass
      extends ClassValue<ConcurrentHashMap<Method, CacheOperation>> {
    @Override
    protected ConcurrentHashMap<Method, CacheOperation> computeValue(Class<?> type) {
      return new ConcurrentHashMap<>();
    }

    CacheOperation get(Method method) {
      return get(method.getDeclaringClass()).get(method);
    }
  }

  private CacheOperations() {}

  /**
   * The {@link ShardedCacheable} operation of a call.
   *
   * @param method the method the join point reports
   * @param target the called object, or null
   */
  public static CacheableOperation cacheable(Method method, Object target) {
    CacheOperation op = CACHEABLE.get(method);
    return (CacheableOperation)
        (op != null
            ? op
            : compile(
                CACHEABLE, method, target, ShardedCacheable.class, CacheOperations::newCacheable));
  }

  /** The {@link ShardedCachePut} operation of a call; see {@link #cacheable}. */
  public static CacheOperation put(Method method, Object target) {
    CacheOperation op = PUT.get(method);
    return op != null
        ? op
        : compile(PUT, method, target, ShardedCachePut.class, CacheOperations::newPut);
  }

  /** The {@link ShardedCacheEvict} operation of a call; see {@link #cacheable}. */
  public static CacheOperation evict(Method method, Object target) {
    CacheOperation op = EVICT.get(method);
    return op != null
        ? op
        : compile(EVICT, method, target, ShardedCacheEvict.class, CacheOperations::newEvict);
  }

  private static CacheOperation compile(
      PerClass ops,
      Method method,
      Object target,
      Class<? extends Annotation> annotation,
      Function<Method, CacheOperation> compiler) {
    if (!method.isAnnotationPresent(annotation)) {
      // An interface-based Spring proxy reports the interface method; the annotation is on the
      // target class's method, which differs per implementation: look it up on every call.
      Method annotated = targetMethod(method, target);
      CacheOperation op = ops.get(annotated);
      return op != null ? op : compile(ops, annotated, target, annotation, compiler);
    }
    // Not computeIfAbsent: compiling may throw, and must not hold the map's bin lock.
    CacheOperation op = compiler.apply(method);
    CacheOperation raced = ops.get(method.getDeclaringClass()).putIfAbsent(method, op);
    return raced != null ? raced : op;
  }

  private static Method targetMethod(Method method, Object target) {
    if (target != null) {
      try {
        Method m = target.getClass().getMethod(method.getName(), method.getParameterTypes());
        if (!m.equals(method)) {
          return m;
        }
      } catch (NoSuchMethodException e) {
        // fall through
      }
    }
    throw new IllegalStateException(
        MethodNames.describe(method) + " is advised but carries no chash annotation");
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
