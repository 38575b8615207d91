package io.github.chash.internal.cache;

import java.util.concurrent.CompletionStage;

/**
 * Internal: starts the computation of a value that completes later, for {@link
 * InterceptedCache#loadFuture}: a method returning a {@code CompletableFuture}, proceeding from an
 * interceptor.
 *
 * @param <V> the value type
 */
@FunctionalInterface
public interface FutureLoader<V> {
  /**
   * Starts the computation.
   *
   * @return the running computation, not null
   * @throws Throwable whatever starting it threw
   */
  CompletionStage<V> start() throws Throwable;
}
