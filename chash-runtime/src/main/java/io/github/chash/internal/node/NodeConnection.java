package io.github.chash.internal.node;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One connection (or client) of a {@link RemoteNode} and its (re)connecting: opened in the
 * background, opened again when asked for after a failed attempt (but not more often than its retry
 * interval), never kept once the node is closed. Reconnecting a connection that was once up is the
 * client library's business; this covers the first one. Thread-safe.
 *
 * @param <C> the client library's connection type
 */
public final class NodeConnection<C> {
  private final RemoteNode<C> node;

  /** What names this connection in log lines: empty for the node's only or read connection. */
  private final String role;

  private final long retryNanos;
  private final Supplier<CompletableFuture<C>> open;

  /** Closes a connection that came up after the node closed. */
  private final Consumer<C> discard;

  private volatile C connection;
  // guarded by this
  private CompletableFuture<C> connecting;
  private long lastAttempt;
  private boolean closed;

  /** Whether {@code awaitReady} logged this connection as still being opened. */
  private boolean late;

  /** Whether an attempt failed since the last success: later ones log at DEBUG. */
  private volatile boolean failureLogged;

  NodeConnection(
      RemoteNode<C> node,
      String role,
      Duration retryAfter,
      Supplier<CompletableFuture<C>> open,
      Consumer<C> discard) {
    this.node = node;
    this.role = role;
    this.retryNanos = retryAfter.toNanos();
    this.open = open;
    this.discard = discard;
  }

  /**
   * {@return the open connection; without one, waits for the attempt under way (starting one if
   * idle) up to {@code wait}}
   *
   * @param wait how long a call may wait for a connection that is not up yet; zero for not at all
   * @throws IllegalStateException when the node is closed, the attempt failed, or it did not finish
   *     within {@code wait}: a timeout as its cause only when the call waited, since a timeout is
   *     the one failure {@code FailurePolicy} may blame on the client
   */
  public C get(Duration wait) {
    C current = connection;
    if (current != null) {
      return current;
    }
    if (isClosed()) {
      throw new IllegalStateException("node is closed");
    }
    CompletableFuture<C> pending = connectIfIdle();
    try {
      return pending.get(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("not connected yet", wait.isZero() ? null : e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(node.describe(e.getCause()), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while connecting", e);
    }
  }

  /**
   * Notes that {@code awaitReady} stopped waiting while the connection was still being opened, so
   * the connection says when it comes up.
   *
   * @return false when it is up (or the node closed) by now: nothing to note
   */
  synchronized boolean noteLate() {
    late = connection == null && !closed;
    return late;
  }

  /** {@return the current or last attempt} */
  synchronized CompletableFuture<C> pending() {
    return connecting;
  }

  private synchronized boolean isClosed() {
    return closed;
  }

  /** {@return the open connection, or null; forgotten, and none is kept from now on} */
  synchronized C detach() {
    closed = true;
    C current = connection;
    connection = null;
    return current;
  }

  /**
   * Starts an attempt unless one is under way or the last one failed less than the retry interval
   * ago; the client library's code runs outside this connection's lock.
   *
   * @return the attempt under way, or the last one
   */
  CompletableFuture<C> connectIfIdle() {
    CompletableFuture<C> started = new CompletableFuture<>();
    synchronized (this) {
      long now = System.nanoTime();
      boolean idle =
          connecting == null
              || (connecting.isCompletedExceptionally() && now - lastAttempt >= retryNanos);
      if (!idle || closed) {
        return connecting;
      }
      lastAttempt = now;
      connecting = started;
    }
    started.whenComplete(
        (opened, failure) -> {
          if (opened != null) {
            connected(opened);
          } else {
            connectFailed(failure);
          }
        });
    try {
      open.get()
          .whenComplete(
              (opened, failure) -> {
                if (failure == null) {
                  started.complete(opened);
                } else {
                  started.completeExceptionally(failure);
                }
              });
    } catch (RuntimeException e) {
      started.completeExceptionally(e);
    }
    return started;
  }

  /**
   * Says why an attempt failed, at WARNING the first time after a success (it may finish after
   * {@code awaitReady} gave up, and a refused login must be named), then at DEBUG; unless the
   * server answered with an error, which names the cause, the warning says what to check.
   */
  private void connectFailed(Throwable failure) {
    Level level = failureLogged || isClosed() ? Level.DEBUG : Level.WARNING;
    failureLogged = true;
    node.log().log(
        level,
        () ->
            "node \""
                + node.id()
                + "\": cannot connect to "
                + node.endpoint()
                + role
                + ": "
                + node.describeConnect(failure)
                + "; its calls are misses until it answers, and the connect is tried again"
                + (node.answered(failure) ? "" : "; " + Connecting.PERSISTS));
  }

  /**
   * Keeps the opened connection, logged at INFO when {@code awaitReady} or a warning said it was
   * not up, else at DEBUG.
   */
  private void connected(C opened) {
    boolean warned = failureLogged;
    failureLogged = false;
    boolean keep;
    boolean reported;
    synchronized (this) {
      keep = !closed;
      if (keep) {
        connection = opened;
      }
      reported = late || warned;
    }
    if (keep) {
      node.log().log(
          reported ? Level.INFO : Level.DEBUG,
          () ->
              "node \""
                  + node.id()
                  + "\": connected to "
                  + node.endpoint()
                  + role
                  + ", "
                  + node.millisSinceStart()
                  + " ms after startup");
    } else {
      discard.accept(opened);
    }
  }
}
