package io.github.chash.aspect.internal;

import io.github.chash.cache.ShardedCacheManager;

/**
 * What one advised method does around its body, compiled once at its first call from all its chash
 * annotations: a single annotation's operation, or several layered. Thread-safe.
 */
public abstract class CacheOperation {

  CacheOperation() {}

  /**
   * Runs the advice for one call.
   *
   * @param args the call's arguments
   * @param body runs the method itself
   * @param manager the manager the advice uses now
   * @return the method's result, or the cached one
   * @throws Throwable whatever the method throws
   */
  public abstract Object invoke(Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable;

  /**
   * {@link #invoke}, for callers that cannot declare {@code Throwable} (code-style AspectJ advice):
   * rethrows whatever the method throws as it is, checked or not. The advised method's own {@code
   * throws} clause allowed it, so its callers are ready for it.
   *
   * @param args the call's arguments
   * @param body runs the advised method
   * @param manager the manager whose cache the operation uses
   * @return what {@link #invoke} returns
   */
  public final Object invokeRethrowing(
      Object[] args, MethodBody body, ShardedCacheManager manager) {
    try {
      return invoke(args, body, manager);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Throws {@code t} as it is; declared to return an exception so callers can write {@code throw}.
   */
  static RuntimeException rethrow(Throwable t) {
    throw CacheOperation.<RuntimeException>sneakyThrow(t);
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneakyThrow(Throwable t) throws T {
    throw (T) t;
  }
}
