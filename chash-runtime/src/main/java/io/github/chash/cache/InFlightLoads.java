package io.github.chash.cache;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/** The loads running in this JVM, by routing key, so that concurrent misses share one load. */
final class InFlightLoads {
  private final ConcurrentHashMap<String, CompletableFuture<Object>> running =
      new ConcurrentHashMap<>();

  /** Registers a new load; returns the running one instead if there is one. */
  CompletableFuture<Object> joinOrStart(String routingKey, CompletableFuture<Object> mine) {
    return running.putIfAbsent(routingKey, mine);
  }

  void finished(String routingKey, CompletableFuture<Object> mine) {
    running.remove(routingKey, mine);
  }

  /** Waits for another caller's load: its value (stored form) or its throwable, unwrapped. */
  static Object await(CompletableFuture<Object> load) throws Throwable {
    try {
      return load.join();
    } catch (CompletionException e) {
      throw e.getCause() != null ? e.getCause() : e;
    }
  }
}
