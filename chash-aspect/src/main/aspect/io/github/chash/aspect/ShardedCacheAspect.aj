package io.github.chash.aspect;

import io.github.chash.aspect.internal.CacheOperations;
import io.github.chash.aspect.internal.CacheableOperation;
import io.github.chash.aspect.internal.ManagerLocator;
import io.github.chash.aspect.internal.MethodBody;
import io.github.chash.cache.ShardedCacheManager;
import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.annotation.SuppressAjWarnings;

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
 * arrays on every call, much of the cost of a hit ({@code AspectHitBenchmark} and {@code
 * HitPathBenchmark} in {@code benchmarks/} measure a hit). Here the advice binds the arguments of
 * methods with up to three parameters directly and reads the method from the join point's static
 * part, so a hit allocates only its routing key and the argument array (which usually does not
 * escape; a lone {@code long} is bound unboxed, without one); the JoinPoint and the closure are
 * built on a miss only, and on every call of methods with four or more parameters.
 *
 * <p>The manager is, in this order: the one given to {@link #setManager}; else one built once from
 * {@code chash.yaml} on the class path.
 *
 * <p>Each method's annotations are compiled at its first call (cache names, key expressions,
 * conditions, TTLs), with the parameter names the weaver put into the join point's signature (read
 * from the class file's {@code MethodParameters} or from javac's debug information), so {@code
 * #name} works without {@code -parameters}; a bad annotation fails that call with a message naming
 * the method. Later calls evaluate the compiled key, look the value up and return it: no parsing or
 * reflection on the hit path. Thread-safe.
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

  /** Any method with a chash annotation, one or several. */
  pointcut annotated():
      execution(@ShardedCacheable * *(..)) || execution(@ShardedCacheable.List * *(..))
      || execution(@ShardedCachePut * *(..)) || execution(@ShardedCachePut.List * *(..))
      || execution(@ShardedCacheEvict * *(..)) || execution(@ShardedCacheEvict.List * *(..));

  /** The common case, which gets the inlined hit path: one @ShardedCacheable and nothing else. */
  pointcut cacheable():
      execution(@ShardedCacheable * *(..)) && !execution(@ShardedCacheable.List * *(..))
      && !execution(@ShardedCachePut * *(..)) && !execution(@ShardedCachePut.List * *(..))
      && !execution(@ShardedCacheEvict * *(..)) && !execution(@ShardedCacheEvict.List * *(..));

  // Every piece of advice suppresses adviceDidNotMatch: a user's build has methods of some arities
  // only, and the warnings would be about this aspect, not their code.

  // Methods with up to three parameters take two pieces of advice each. The hit path comes first,
  // so it is the outer one (AspectJ orders around advice of one aspect by declaration): it binds the
  // arguments with args() and calls proceed directly, so ajc inlines it into the woven method and a
  // hit allocates nothing of AspectJ's; only a miss proceeds, into the miss path, which runs the
  // body through an inner class (so AspectJ builds a closure, on misses only). Neither may use
  // thisJoinPoint: ajc would build it at the method's entry, for hits too.

  @SuppressAjWarnings("adviceDidNotMatch")
  Object around(): cacheable() && execution(* *()) {
    Object cached = lookup(thisJoinPointStaticPart, NO_ARGS);
    return cached != CacheableOperation.MISS ? cached : proceed();
  }

  // A lone long (a numeric id, the commonest key) is bound unboxed: its boxing would be a hit's
  // one allocation besides the routing key, which the cache then makes from the long itself. Its
  // miss path is the one-parameter one below. A lone object is looked up without an argument
  // array, which escape analysis removed in some JIT compilations only (HitPathBenchmark with
  // -prof gc shows the bytes per hit). Every lookup makes the call's routing key once
  // (KeyExpression.routingKey) and the miss path makes it again, as the two pieces of advice share
  // no state.
  @SuppressAjWarnings("adviceDidNotMatch")
  Object around(long a): cacheable() && execution(* *(long)) && args(a) {
    Object cached = lookupLong(thisJoinPointStaticPart, a);
    return cached != CacheableOperation.MISS ? cached : proceed(a);
  }

  @SuppressAjWarnings("adviceDidNotMatch")
  Object around(Object a): cacheable() && execution(* *(*)) && !execution(* *(long)) && args(a) {
    Object cached = lookupOne(thisJoinPointStaticPart, a);
    return cached != CacheableOperation.MISS ? cached : proceed(a);
  }

  @SuppressAjWarnings("adviceDidNotMatch")
  Object around(Object a, Object b): cacheable() && execution(* *(*, *)) && args(a, b) {
    Object cached = lookup(thisJoinPointStaticPart, new Object[] {a, b});
    return cached != CacheableOperation.MISS ? cached : proceed(a, b);
  }

  @SuppressAjWarnings("adviceDidNotMatch")
  Object around(Object a, Object b, Object c):
      cacheable() && execution(* *(*, *, *)) && args(a, b, c) {
    Object cached = lookup(thisJoinPointStaticPart, new Object[] {a, b, c});
    return cached != CacheableOperation.MISS ? cached : proceed(a, b, c);
  }

  // The miss paths: reached only through the hit path's proceed, so they do not look up again.
  // The inner class's method must not be named "proceed": it would call itself.

  @SuppressAjWarnings("adviceDidNotMatch")
  Object around(): cacheable() && execution(* *()) {
    return load(thisJoinPointStaticPart, NO_ARGS, new MethodBody() {
      public Object run() throws Throwable {
        return proceed();
      }
    });
  }

  @SuppressAjWarnings("adviceDidNotMatch")
  Object around(Object a): cacheable() && execution(* *(*)) && args(a) {
    return load(thisJoinPointStaticPart, new Object[] {a}, new MethodBody() {
      public Object run() throws Throwable {
        return proceed(a);
      }
    });
  }

  @SuppressAjWarnings("adviceDidNotMatch")
  Object around(Object a, Object b): cacheable() && execution(* *(*, *)) && args(a, b) {
    return load(thisJoinPointStaticPart, new Object[] {a, b}, new MethodBody() {
      public Object run() throws Throwable {
        return proceed(a, b);
      }
    });
  }

  @SuppressAjWarnings("adviceDidNotMatch")
  Object around(Object a, Object b, Object c):
      cacheable() && execution(* *(*, *, *)) && args(a, b, c) {
    return load(thisJoinPointStaticPart, new Object[] {a, b, c}, new MethodBody() {
      public Object run() throws Throwable {
        return proceed(a, b, c);
      }
    });
  }

  // Everything else (a lone @ShardedCacheable with four or more parameters, puts, evictions,
  // several annotations): one piece of advice, with the JoinPoint's argument array.
  @SuppressAjWarnings("adviceDidNotMatch")
  Object around():
      annotated() && (!cacheable() || execution(* *(*, *, *, *, ..))) {
    return CacheOperations.woven(thisJoinPointStaticPart)
        .invokeRethrowing(thisJoinPoint.getArgs(), new MethodBody() {
          public Object run() throws Throwable {
            return proceed();
          }
        }, ManagerLocator.current());
  }

  private static Object lookup(JoinPoint.StaticPart joinPoint, Object[] args) {
    return CacheOperations.wovenCacheable(joinPoint).lookup(args, ManagerLocator.current());
  }

  private static Object lookupOne(JoinPoint.StaticPart joinPoint, Object a) {
    return CacheOperations.wovenCacheable(joinPoint).lookupOne(a, ManagerLocator.current());
  }

  private static Object lookupLong(JoinPoint.StaticPart joinPoint, long a) {
    return CacheOperations.wovenCacheable(joinPoint).lookup(a, ManagerLocator.current());
  }

  private static Object load(JoinPoint.StaticPart joinPoint, Object[] args, MethodBody body) {
    return CacheOperations.wovenCacheable(joinPoint)
        .loadRethrowing(args, body, ManagerLocator.current());
  }
}
