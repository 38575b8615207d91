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
     * Set before completion when the load's fill took a lease and did not land: its lease was found
     * gone (a write in another JVM overtook the load, perhaps before a caller that joined it
     * began), or the fill failed or timed out, which may hide the same. A caller that joined it
     * does not take its value, which may be older than that write (fleet simulation, seed
     * 4120415584): see {@link #takes}.
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

  /** The load of the key registered now, or null: for tests. */
  Load running(String routingKey) {
    return running.get(routingKey);
  }

  /**
   * Ends a load with the stored form of its value. It is unregistered before it completes, so that
   * a caller woken by its completion never finds it registered again (see {@link #takes}).
   */
  void settle(String routingKey, Load load, Object stored) {
    running.remove(routingKey, load);
    load.complete(stored);
  }

  /** Ends a load with its failure, unregistered first as {@link #settle} says. */
  void settleExceptionally(String routingKey, Load load, Throwable failure) {
    running.remove(routingKey, load);
    load.completeExceptionally(failure);
  }

  /**
   * Whether a caller that joined {@code load} takes its outcome: unless the load was overtaken, in
   * the caller's first round. A caller that joined an overtaken load joins or starts one more
   * ({@code rejoined}) and takes that one's outcome, whatever it is: the overtaken load was
   * unregistered before it completed, so the one found now was registered, and its look at the key,
   * lease and loader came, after the caller joined the first, hence after it began; a write
   * completed before the caller began is older than anything that load reads (issue 42: each joiner
   * loading for itself made a herd of one hot key's callers under node timeouts).
   */
  static boolean takes(Load load, boolean rejoined) {
    return rejoined || !load.overtaken;
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
