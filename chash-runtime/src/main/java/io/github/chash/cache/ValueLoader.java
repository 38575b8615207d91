package io.github.chash.cache;

/**
 * Computes a missing value, for example by proceeding with an intercepted method call.
 *
 * <p>May throw anything; the cache rethrows the same throwable, unwrapped, to the caller and to
 * every caller waiting on the same load.
 *
 * @param <V> the value type
 */
@FunctionalInterface
public interface ValueLoader<V> {

  /** Computes the value; may return {@code null}. */
  V load() throws Throwable;
}
