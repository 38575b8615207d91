package io.github.chash.aspect.internal;

/**
 * The advised method's own body, run by an operation when the cache cannot answer: an AspectJ
 * {@code proceed} or a Spring {@code MethodInvocation.proceed()}.
 */
@FunctionalInterface
public interface MethodBody {

  /**
   * Runs the method's body with the call's arguments.
   *
   * @return what the method returned
   * @throws Throwable whatever the method throws
   */
  Object run() throws Throwable;
}
