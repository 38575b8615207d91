package io.github.chash.internal.cache;

/**
 * Internal: computes a missing value, for example by proceeding with an intercepted method call.
 *
 * <p>May throw anything; the cache rethrows the same throwable, unwrapped, to the caller and to
 * every caller waiting on the same load.
 *
 * @param <V> the value type
 */
@FunctionalInterface
public interface ValueLoader<V> {

  /**
   * Computes the value; may return {@code null}.
   *
   * @return the value, may be null
   * @throws Throwable whatever the computation throws, passed on to the caller
   */
  V load() throws Throwable;
}
