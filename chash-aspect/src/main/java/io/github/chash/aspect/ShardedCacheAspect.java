package io.github.chash.aspect;

import io.github.chash.aspect.internal.CacheOperation;
import io.github.chash.aspect.internal.CacheOperations;
import io.github.chash.aspect.internal.ManagerLocator;
import io.github.chash.cache.ShardedCacheManager;
import java.lang.reflect.Method;
import java.util.function.Supplier;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.reflect.MethodSignature;

/**
 * The aspect behind {@link ShardedCacheable}, {@link ShardedCachePut} and {@link ShardedCacheEvict}:
 * advises the <em>execution</em> of annotated methods (never their calls, so a method is advised
 * once), routing each call's key through the ring of a {@link ShardedCacheManager}.
 *
 * <p>Use it in one of three ways, never two at once (each would advise the method):
 *
 * <ul>
 *   <li>Compile-time weaving: list {@code io.github.chash:chash-aspect} under {@code
 *       aspectLibraries} of the {@code aspectj-maven-plugin}.
 *   <li>Load-time weaving: run with {@code -javaagent:aspectjweaver.jar}; this jar's {@code
 *       META-INF/aop.xml} declares the aspect (it is read only by the weaving agent).
 *   <li>Spring AOP: import {@link io.github.chash.aspect.spring.ShardedCacheAspectConfiguration},
 *       or declare this class as a bean under {@code @EnableAspectJAutoProxy}.
 * </ul>
 *
 * <p>The manager is, in this order: the one given to {@link #setManager}; the one of {@link
 * #setManagerProvider} (what the Spring configuration sets to the context's manager bean); else one
 * built once from {@code chash.yaml} on the class path.
 *
 * <p>Each method's annotation is compiled at its first call (key expression, cache name, TTL); a bad
 * one fails that call with a message naming the method. Later calls evaluate the compiled key, look
 * the value up and return it: no parsing or reflection on the hit path. Thread-safe.
 */
@Aspect
public class ShardedCacheAspect {
  private static volatile ShardedCacheManager programmatic;

  private volatile Supplier<? extends ShardedCacheManager> provider;
  private volatile ShardedCacheManager provided;

  /** Creates the aspect; weavers and Spring call this. */
  public ShardedCacheAspect() {}

  /**
   * Sets the manager every instance of the aspect uses, ahead of any Spring bean or {@code
   * chash.yaml}; {@code null} clears it. The caller keeps ownership (closing it).
   */
  public static void setManager(ShardedCacheManager manager) {
    programmatic = manager;
  }

  /**
   * Sets where this instance gets its manager when none was {@linkplain #setManager set}; called
   * once, on the first call that needs it, until it supplies a manager. The Spring configuration
   * sets it to the context's {@link ShardedCacheManager} bean.
   */
  public void setManagerProvider(Supplier<? extends ShardedCacheManager> provider) {
    this.provider = provider;
    this.provided = null;
  }

  /**
   * Returns the manager this instance uses now, resolving it as described above.
   *
   * @throws IllegalStateException if there is none and no {@code chash.yaml} on the class path
   */
  public ShardedCacheManager manager() {
    ShardedCacheManager m = programmatic;
    if (m != null) {
      return m;
    }
    m = provided;
    if (m != null) {
      return m;
    }
    Supplier<? extends ShardedCacheManager> p = provider;
    if (p != null) {
      m = p.get();
      if (m != null) {
        provided = m;
        return m;
      }
    }
    return ManagerLocator.classPathManager();
  }

  /**
   * Advice of {@link ShardedCacheable}.
   *
   * @throws Throwable whatever the method throws
   */
  @Around("execution(@io.github.chash.aspect.ShardedCacheable * *(..))")
  public Object cacheable(ProceedingJoinPoint call) throws Throwable {
    CacheOperation op = CacheOperations.cacheable(method(call), call.getTarget());
    return op.invoke(call, manager());
  }

  /**
   * Advice of {@link ShardedCachePut}.
   *
   * @throws Throwable whatever the method throws
   */
  @Around("execution(@io.github.chash.aspect.ShardedCachePut * *(..))")
  public Object put(ProceedingJoinPoint call) throws Throwable {
    CacheOperation op = CacheOperations.put(method(call), call.getTarget());
    return op.invoke(call, manager());
  }

  /**
   * Advice of {@link ShardedCacheEvict}.
   *
   * @throws Throwable whatever the method throws
   */
  @Around("execution(@io.github.chash.aspect.ShardedCacheEvict * *(..))")
  public Object evict(ProceedingJoinPoint call) throws Throwable {
    CacheOperation op = CacheOperations.evict(method(call), call.getTarget());
    return op.invoke(call, manager());
  }

  private static Method method(ProceedingJoinPoint call) {
    return ((MethodSignature) call.getSignature()).getMethod();
  }
}
