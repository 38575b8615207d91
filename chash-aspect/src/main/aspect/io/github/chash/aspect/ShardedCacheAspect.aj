package io.github.chash.aspect;

import io.github.chash.aspect.internal.CacheOperation;
import io.github.chash.aspect.internal.CacheOperations;
import io.github.chash.aspect.internal.ManagerLocator;
import io.github.chash.aspect.internal.MethodBody;
import io.github.chash.cache.ShardedCacheManager;
import java.lang.reflect.Method;
import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.reflect.MethodSignature;

/**
 * The aspect behind {@link ShardedCacheable}, {@link ShardedCachePut} and {@link ShardedCacheEvict}
 * for AspectJ weaving: advises the <em>execution</em> of annotated methods (never their calls, so a
 * method is advised once), routing each call's key through the ring of a {@link
 * ShardedCacheManager}.
 *
 * <p>Weave it at compile time (list {@code io.github.chash:chash-aspect} under {@code
 * aspectLibraries} of the {@code aspectj-maven-plugin}) or at load time ({@code
 * -javaagent:aspectjweaver.jar}; this jar's {@code META-INF/aop.xml} declares it). Spring AOP
 * proxies use {@link io.github.chash.aspect.spring.ShardedCacheAspectConfiguration} instead; never
 * both on one class, or each would advise the method.
 *
 * <p>Why code style and not an {@code @Aspect} class: annotation-style around advice makes AspectJ
 * build a {@code JoinPointImpl} (with a {@code ThreadLocal} of its own), a closure and two argument
 * arrays on every call, about 60 ns and 184 bytes, more than half of a hit. Here the advice binds
 * the arguments of methods with up to three parameters directly and reads the method from the join
 * point's static part, so a hit allocates only the argument array and the closure of the body; only
 * methods with four or more parameters use {@code thisJoinPoint}.
 *
 * <p>The manager is, in this order: the one given to {@link #setManager}; else one built once from
 * {@code chash.yaml} on the class path.
 *
 * <p>Each method's annotation is compiled at its first call (key expression, cache name, TTL); a bad
 * one fails that call with a message naming the method. Later calls evaluate the compiled key, look
 * the value up and return it: no parsing or reflection on the hit path. Thread-safe.
 */
public aspect ShardedCacheAspect {

  /**
   * Sets the manager every advised method uses, ahead of any Spring bean or {@code chash.yaml};
   * {@code null} clears it. The caller keeps ownership (closing it).
   */
  public static void setManager(ShardedCacheManager manager) {
    ManagerLocator.setProgrammatic(manager);
  }

  /**
   * Returns the manager advised methods use now.
   *
   * @throws IllegalStateException if none was set and there is no {@code chash.yaml} on the class
   *     path
   */
  public static ShardedCacheManager manager() {
    return ManagerLocator.current();
  }

  private static final Object[] NO_ARGS = {};

  pointcut cacheable(): execution(@ShardedCacheable * *(..));

  // One advice per small arity: args() binds the arguments without a JoinPoint. The body runs
  // through an inner class, so "proceed" is not a name the inner class's method may take.

  Object around(): cacheable() && execution(* *()) {
    return cacheable(thisJoinPointStaticPart).invokeRethrowing(NO_ARGS, new MethodBody() {
      public Object run() throws Throwable {
        return proceed();
      }
    }, ManagerLocator.current());
  }

  Object around(Object a): cacheable() && execution(* *(*)) && args(a) {
    return cacheable(thisJoinPointStaticPart).invokeRethrowing(new Object[] {a}, new MethodBody() {
      public Object run() throws Throwable {
        return proceed(a);
      }
    }, ManagerLocator.current());
  }

  Object around(Object a, Object b): cacheable() && execution(* *(*, *)) && args(a, b) {
    return cacheable(thisJoinPointStaticPart).invokeRethrowing(new Object[] {a, b}, new MethodBody() {
      public Object run() throws Throwable {
        return proceed(a, b);
      }
    }, ManagerLocator.current());
  }

  Object around(Object a, Object b, Object c):
      cacheable() && execution(* *(*, *, *)) && args(a, b, c) {
    return cacheable(thisJoinPointStaticPart).invokeRethrowing(new Object[] {a, b, c}, new MethodBody() {
      public Object run() throws Throwable {
        return proceed(a, b, c);
      }
    }, ManagerLocator.current());
  }

  Object around(): cacheable() && execution(* *(*, *, *, *, ..)) {
    return cacheable(thisJoinPointStaticPart).invokeRethrowing(thisJoinPoint.getArgs(), new MethodBody() {
      public Object run() throws Throwable {
        return proceed();
      }
    }, ManagerLocator.current());
  }

  Object around(): execution(@ShardedCachePut * *(..)) {
    CacheOperation op = CacheOperations.put(method(thisJoinPointStaticPart), null);
    return op.invokeRethrowing(thisJoinPoint.getArgs(), new MethodBody() {
      public Object run() throws Throwable {
        return proceed();
      }
    }, ManagerLocator.current());
  }

  Object around(): execution(@ShardedCacheEvict * *(..)) {
    CacheOperation op = CacheOperations.evict(method(thisJoinPointStaticPart), null);
    return op.invokeRethrowing(thisJoinPoint.getArgs(), new MethodBody() {
      public Object run() throws Throwable {
        return proceed();
      }
    }, ManagerLocator.current());
  }

  private static CacheOperation cacheable(JoinPoint.StaticPart joinPoint) {
    return CacheOperations.cacheable(method(joinPoint), null);
  }

  private static Method method(JoinPoint.StaticPart joinPoint) {
    return ((MethodSignature) joinPoint.getSignature()).getMethod();
  }
}
