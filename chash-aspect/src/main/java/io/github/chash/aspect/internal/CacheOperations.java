package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.aspect.ShardedCachePut;
import io.github.chash.aspect.ShardedCacheable;
import io.github.chash.internal.keys.AnnotationRules;
import io.github.chash.internal.keys.CacheAnnotation;
import io.github.chash.internal.keys.CacheAnnotation.Kind;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.reflect.CodeSignature;
import org.aspectj.lang.reflect.MethodSignature;

/**
 * The compiled operation of every advised method, one per method, built at the method's first call
 * from all its chash annotations. A method whose annotations do not compile is not recorded, so
 * each call fails with the same message. Thread-safe.
 */
public final class CacheOperations {
  /** The chash method annotations and their containers (several on one method). */
  public static final Set<Class<? extends Annotation>> ANNOTATION_TYPES =
      Set.of(
          ShardedCacheable.class,
          ShardedCacheable.List.class,
          ShardedCachePut.class,
          ShardedCachePut.List.class,
          ShardedCacheEvict.class,
          ShardedCacheEvict.List.class);

  // Per declaring class (ClassValue), so that an application's classes can still be unloaded.
  private static final ClassValue<ConcurrentHashMap<Method, CacheOperation>> OPERATIONS =
      new ClassValue<>() {
        @Override
        protected ConcurrentHashMap<Method, CacheOperation> computeValue(Class<?> type) {
          return new ConcurrentHashMap<>();
        }
      };

  /** Evictions wrap puts, which wrap cacheables (see {@link LayeredOperation}). */
  private static final Comparator<AnnotatedOperation> LAYER_ORDER =
      Comparator.comparingInt(
          op -> op.annotation.kind() == Kind.EVICT ? 0 : op.annotation.kind() == Kind.PUT ? 1 : 2);

  private CacheOperations() {}

  /**
   * {@return the operation of a call through a Spring proxy; parameter names come from reflection
   * ({@code -parameters})}
   *
   * @param method the method the invocation reports (an interface's, for an interface proxy)
   * @param target the called object, or null
   */
  public static CacheOperation of(Method method, Object target) {
    CacheOperation op = recorded(method);
    return op != null ? op : compile(method, target);
  }

  /**
   * {@return the operation of a woven join point; parameter names come from the join point's
   * signature, which the weaver filled from the class file (so debug information is enough)}
   *
   * @param joinPoint the static part of the woven join point
   */
  public static CacheOperation woven(JoinPoint.StaticPart joinPoint) {
    // Small on purpose (the first call's work is in compileWoven): the JIT inlines it into every
    // woven hit, so the argument array there does not escape.
    Method method = ((MethodSignature) joinPoint.getSignature()).getMethod();
    CacheOperation op = recorded(method);
    return op != null ? op : compileWoven(method, joinPoint);
  }

  private static CacheOperation compileWoven(Method method, JoinPoint.StaticPart joinPoint) {
    String[] names = ((CodeSignature) joinPoint.getSignature()).getParameterNames();
    return record(method, compile(AdvisedMethod.woven(method, names)));
  }

  /**
   * {@return the operation of a woven method whose only chash annotation is one
   * {@code @ShardedCacheable} (the aspect's pointcuts guarantee it)}
   *
   * @param joinPoint the static part of the woven join point
   */
  public static CacheableOperation wovenCacheable(JoinPoint.StaticPart joinPoint) {
    return (CacheableOperation) woven(joinPoint);
  }

  private static CacheOperation recorded(Method method) {
    return OPERATIONS.get(method.getDeclaringClass()).get(method);
  }

  private static CacheOperation compile(Method method, Object target) {
    if (!AdvisedMethod.isAnnotated(method)) {
      // An interface-based Spring proxy reports the interface method; the annotations are on the
      // target class's method, which differs per implementation: look it up on every call.
      Method annotated = targetMethod(method, target);
      CacheOperation op = recorded(annotated);
      return op != null ? op : compile(annotated, target);
    }
    return record(method, compile(AdvisedMethod.reflective(method)));
  }

  private static CacheOperation record(Method method, CacheOperation op) {
    // Not computeIfAbsent: compiling may throw, and must not hold the map's bin lock.
    CacheOperation raced = OPERATIONS.get(method.getDeclaringClass()).putIfAbsent(method, op);
    return raced != null ? raced : op;
  }

  private static CacheOperation compile(AdvisedMethod method) {
    List<CacheAnnotation> declared = method.annotations();
    AnnotationRules.Result checked =
        AnnotationRules.check(method.shape(), method.defaults(), declared);
    if (!checked.problems().isEmpty()) {
      throw new IllegalStateException(
          method.description + ": " + String.join("; ", checked.problems()));
    }
    List<AnnotatedOperation> layers = new ArrayList<>();
    for (AnnotationRules.Checked annotation : checked.annotations()) {
      layers.add(
          switch (annotation.source().kind()) {
            case CACHEABLE -> new CacheableOperation(method, annotation);
            case PUT -> new PutOperation(method, annotation);
            case EVICT -> new EvictOperation(method, annotation);
          });
    }
    if (layers.isEmpty()) {
      throw new IllegalStateException(method.description + " carries no chash annotation");
    }
    layers.sort(LAYER_ORDER);
    return layers.size() == 1 ? layers.get(0) : new LayeredOperation(layers);
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
}
