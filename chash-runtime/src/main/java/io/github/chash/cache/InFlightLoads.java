package io.github.chash.cache;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/** The loads running in this JVM, by routing key, so that concurrent misses share one load. */
final class InFlightLoads {
  private final ConcurrentHashMap<String, Load> running = new ConcurrentHashMap<>();

  /** One running load: completes with the stored form of the value, or the loader's throwable. */
  static final class Load extends CompletableFuture<Object> {
    /** The thread that runs a blocking load; null for a future's, which blocks no thread. */
    final Thread loader;

    /**
     * Set before completion when the load's fill found its lease gone: a write in another JVM
     * overtook the load, perhaps before a caller that joined it began, so such a caller loads for
     * itself rather than take a value older than that write (fleet simulation, seed 4120415584).
     */
    volatile boolean overtaken;

    private Load(Thread loader) {
      this.loader = loader;
    }

    /** A load the calling thread runs, blocking until it has the value. */
    static Load blocking() {
      return new Load(Thread.currentThread());
    }

    /** A load that a future completes, whichever thread that is. */
    static Load future() {
      return new Load(null);
    }
  }

  /** Registers a new load; returns the running one instead if there is one. */
  Load joinOrStart(String routingKey, Load mine) {
    return running.putIfAbsent(routingKey, mine);
  }

  void finished(String routingKey, Load mine) {
    running.remove(routingKey, mine);
  }

  /**
   * A write of the key began: callers from now on start their own load instead of joining one that
   * began before the write (whose value may be older). Waiters already joined keep theirs.
   */
  void forget(String routingKey) {
    if (!running.isEmpty()) {
      running.remove(routingKey);
    }
  }

  /** {@link #forget} for every key with the prefix (a cleared cache). */
  void forgetStartingWith(String prefix) {
    running.keySet().removeIf(key -> key.startsWith(prefix));
  }

  /**
   * Waits for another caller's load: its value (stored form) or its throwable, unwrapped.
   *
   * @throws IllegalStateException if the load is the calling thread's own (a loader asking for its
   *     own key would wait forever)
   */
  static Object await(String routingKey, Load load) throws Throwable {
    if (load.loader == Thread.currentThread()) {
      throw new IllegalStateException(
          "recursive load: the loader of key \"" + routingKey + "\" asked for the same key");
    }
    try {
      return load.join();
    } catch (CompletionException e) {
      throw unwrap(e);
    }
  }

  /** The throwable a load failed with, without the {@link CompletionException} around it. */
  static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }
}
