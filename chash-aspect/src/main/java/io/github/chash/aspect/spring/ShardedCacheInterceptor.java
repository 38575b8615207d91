package io.github.chash.aspect.spring;

import io.github.chash.aspect.internal.CacheOperation;
import io.github.chash.aspect.internal.ManagerLocator;
import io.github.chash.cache.ShardedCacheManager;
import java.lang.reflect.Method;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

/**
 * Runs one of the chash annotations' operations around a Spring proxy's method calls; {@link
 * ShardedCacheAspectConfiguration} registers one per annotation. The manager is, in this order: the
 * one set by {@code ShardedCacheAspect.setManager}; the provider's (the context's bean); else the
 * one built from {@code chash.yaml} on the class path. Thread-safe.
 */
public final class ShardedCacheInterceptor implements MethodInterceptor {
  private final BiFunction<Method, Object, CacheOperation> operations;
  private final Supplier<? extends ShardedCacheManager> provider;
  private volatile ShardedCacheManager provided;

  /**
   * Creates the interceptor of one annotation.
   *
   * @param operations the compiled operation of a called method and its target, such as {@code
   *     CacheOperations::cacheable}
   * @param provider the context's manager, or null; asked at each call until it supplies one
   */
  public ShardedCacheInterceptor(
      BiFunction<Method, Object, CacheOperation> operations,
      Supplier<? extends ShardedCacheManager> provider) {
    this.operations = operations;
    this.provider = provider;
  }

  @Override
  public Object invoke(MethodInvocation invocation) throws Throwable {
    CacheOperation op = operations.apply(invocation.getMethod(), invocation.getThis());
    return op.invoke(invocation.getArguments(), invocation::proceed, manager());
  }

  /**
   * Returns the manager the interceptor uses now, resolving it as described above.
   *
   * @throws IllegalStateException if there is none and no {@code chash.yaml} on the class path
   */
  public ShardedCacheManager manager() {
    ShardedCacheManager m = ManagerLocator.programmatic();
    if (m != null) {
      return m;
    }
    m = provided;
    if (m != null) {
      return m;
    }
    m = provider.get();
    if (m != null) {
      provided = m;
      return m;
    }
    return ManagerLocator.classPathManager();
  }
}
