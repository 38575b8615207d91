package io.github.chash.aspect.internal;

import io.github.chash.cache.ShardedCacheManager;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

/**
 * Runs the chash annotations' operations around a Spring proxy's method calls; {@link
 * io.github.chash.aspect.spring.ShardedCacheAspectConfiguration} registers it for every annotated
 * method. Parameter names come from reflection: key expressions that name parameters ({@code #id})
 * need classes compiled with {@code -parameters}. The manager is, in this order: the one set by
 * {@code ShardedCacheAspect.setManager}; the provider's (the context's bean); else the one built
 * from {@code chash.yaml} on the class path. Thread-safe.
 */
public final class ShardedCacheInterceptor implements MethodInterceptor {
  private final Supplier<? extends ShardedCacheManager> provider;
  private volatile ShardedCacheManager provided;

  /**
   * Creates the interceptor.
   *
   * @param provider the context's manager, or null; asked at each call until it supplies one
   */
  public ShardedCacheInterceptor(Supplier<? extends ShardedCacheManager> provider) {
    this.provider = provider;
  }

  @Override
  public Object invoke(MethodInvocation invocation) throws Throwable {
    CacheOperation op = CacheOperations.of(invocation.getMethod(), invocation.getThis());
    return op.invoke(invocation.getArguments(), invocation::proceed, manager());
  }

  /**
   * {@return the manager the interceptor uses now, resolving it as described above}
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
