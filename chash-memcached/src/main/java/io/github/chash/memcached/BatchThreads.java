package io.github.chash.memcached;

import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that run memcached nodes' blocking calls answered with a future ({@code getAll},
 * {@code putAll}, {@code getHeld}) and the building of their clients: XMemcached has no
 * asynchronous API with replies, so a future needs a thread that waits.
 *
 * <p>One pool for all nodes of the JVM, of daemon threads that end after a minute idle: nodes come
 * and go with membership changes, and a pool per node would multiply the threads by the nodes and
 * make closing a node wait for its calls in flight; shared, it needs no closing. It is bounded:
 * each thread waits at most about a node timeout, so {@link #MAX_THREADS} keep hundreds of calls a
 * second going even against a frozen server. A call beyond that runs on its caller's thread instead
 * of queueing: a queued call would spend its node's timeout waiting for a thread and fail a healthy
 * node, and a refused one would fail it at once.
 */
final class BatchThreads {
  /** The most threads at once. */
  static final int MAX_THREADS = 64;

  private static final long IDLE_SECONDS = 60;
  private static final AtomicInteger THREADS = new AtomicInteger();

  static final Executor INSTANCE =
      new ThreadPoolExecutor(
          0,
          MAX_THREADS,
          IDLE_SECONDS,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          task -> {
            Thread t = new Thread(task, "chash-memcached-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
          },
          new ThreadPoolExecutor.CallerRunsPolicy());

  private BatchThreads() {}
}
