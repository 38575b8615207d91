package io.github.chash.internal.node;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.Marker;
import io.github.chash.cache.ValueRefusedException;
import io.github.chash.internal.codec.CacheCodecs;
import io.github.chash.internal.codec.MarkerBytes;
import io.github.chash.internal.codec.StoredValues;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a {@link CacheNode} on a remote server (Redis, memcached) is apart from its protocol: its
 * connections' life cycle ({@link NodeConnection}: opened in the background, awaited together at
 * startup, closed once), the deadline of its calls ({@link ClientStalls}) and how a late or failed
 * reply becomes a {@link CacheNodeException}, the time to live it writes, and the bytes of a value
 * or a {@link Marker}. A protocol's node class holds its commands only, as Lettuce keeps connection
 * supervision apart from its commands. This class names no client library, so the protocol modules
 * build on it alone.
 *
 * @param <C> the client library's connection (or client) type
 */
public abstract class RemoteNode<C> implements CacheNode {
  /** A TTL this long (a century, Caffeine's cap too) is written as no expiry. */
  private static final long NO_EXPIRY_MILLIS = Duration.ofDays(36_500).toMillis();

  private final String id;
  private final String endpoint;
  private final Duration timeout;
  private final System.Logger log;
  private final CacheCodecs codecs;
  private final long startNanos;
  private final long readyDeadlineNanos;
  private final List<NodeConnection<C>> connections = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  /**
   * Starts the node's connect deadline: {@link #awaitReady} waits for its connections until one
   * connect timeout from now.
   *
   * @param id the node's id
   * @param endpoint the server as log lines and failures name it: never a credential
   * @param timeout the node's command timeout
   * @param codecs the value rules of the node's caches
   * @param log the protocol's logger
   */
  protected RemoteNode(
      String id, String endpoint, Duration timeout, CacheCodecs codecs, System.Logger log) {
    this.id = id;
    this.endpoint = endpoint;
    this.timeout = timeout;
    this.codecs = codecs;
    this.log = log;
    this.startNanos = System.nanoTime();
    this.readyDeadlineNanos = startNanos + Connecting.timeout(timeout).toNanos();
  }

  /**
   * Adds a connection of the node and starts opening it.
   *
   * @param role what names the connection in log lines: empty for the node's only or main one
   * @param retryAfter how long after a failed attempt the next may start
   * @param open starts an attempt
   * @param discard closes a connection that came up after the node closed
   * @return the connection
   */
  protected final NodeConnection<C> connection(
      String role, Duration retryAfter, Supplier<CompletableFuture<C>> open, Consumer<C> discard) {
    NodeConnection<C> added = new NodeConnection<>(this, role, retryAfter, open, discard);
    connections.add(added);
    added.connectIfIdle();
    return added;
  }

  @Override
  public final String id() {
    return id;
  }

  /** {@return the server, as log lines and failures name it} */
  protected final String endpoint() {
    return endpoint;
  }

  /** {@inheritDoc} Here: the endpoint without its scheme, masked credentials, database or name. */
  @Override
  public final String address() {
    String rest = endpoint;
    int scheme = rest.indexOf("://");
    if (scheme >= 0) {
      rest = rest.substring(scheme + 3);
    }
    int at = rest.lastIndexOf('@');
    if (at >= 0) {
      rest = rest.substring(at + 1);
    }
    for (char end : new char[] {'/', '#', '?'}) {
      int cut = rest.indexOf(end);
      if (cut >= 0) {
        rest = rest.substring(0, cut);
      }
    }
    return rest;
  }

  /** {@return the node's command timeout} */
  protected final Duration timeout() {
    return timeout;
  }

  /** {@return whether {@link #close} began} */
  protected final boolean isClosed() {
    return closed;
  }

  final System.Logger log() {
    return log;
  }

  /**
   * Waits until every connection is up, at most one connect timeout from the node's creation, so
   * the first calls after startup do not fail (and eject the node) just because a connection was
   * still being set up; a server that is down or frozen does not fail startup, its calls fail until
   * it is back. Nodes created together wait out their timeouts together. A connection still being
   * opened then is logged at INFO (a busy start), and again when it comes up; a failed attempt logs
   * its own warning.
   */
  @Override
  public void awaitReady() {
    for (NodeConnection<C> connection : connections) {
      try {
        C open = connection.pending().get(readyNanosLeft(), TimeUnit.NANOSECONDS);
        if (ready(open, readyDeadlineNanos)) {
          continue;
        }
        Connecting.logNoAnswer(log, id, endpoint, timeout);
      } catch (TimeoutException e) {
        if (!connection.noteLate()) {
          continue; // up in the meantime
        }
        Connecting.logStillConnecting(log, id, endpoint, timeout);
      } catch (ExecutionException e) {
        // the connection logged the attempt's failure, as a warning
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
  }

  /** {@return the milliseconds since the node was created} */
  final long millisSinceStart() {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private long readyNanosLeft() {
    return Math.max(0, readyDeadlineNanos - System.nanoTime());
  }

  /**
   * {@return whether an open connection can take commands, waiting for it until {@code
   * deadlineNanos} at most; true unless the client library says so apart from opening it}
   *
   * @param open the opened connection
   * @param deadlineNanos the end of {@link #awaitReady}'s wait, in {@link System#nanoTime} time
   * @throws InterruptedException when the waiting thread is interrupted
   */
  protected boolean ready(C open, long deadlineNanos) throws InterruptedException {
    return true;
  }

  /**
   * Closes the node once: no connection is kept from now on, and the open ones go to {@link
   * #shutdown}.
   */
  @Override
  public final void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    List<C> open = new ArrayList<>(connections.size());
    for (NodeConnection<C> connection : connections) {
      C detached = connection.detach();
      if (detached != null) {
        open.add(detached);
      }
    }
    try {
      shutdown(open);
    } catch (RuntimeException e) {
      log.log(Level.DEBUG, () -> "node \"" + id + "\": error while closing: " + e);
    }
  }

  /**
   * Closes the node's open connections and whatever else it holds; a connection still opening is
   * given to its {@code discard} once it is up.
   *
   * @param open the connections that were open, in the order they were added
   */
  protected abstract void shutdown(List<C> open);

  /**
   * {@return a deadline starting now: the node's timeout of awake time, blamed on the server only
   * once {@link #ioCheck} shows the threads that read its replies could run}
   */
  protected final ClientStalls.Deadline deadline() {
    return ClientStalls.deadline(timeout, ioCheck());
  }

  /** {@return the check of the threads that read the node's replies; none by default} */
  protected ClientStalls.IoCheck ioCheck() {
    return ClientStalls.IoCheck.NONE;
  }

  /** {@return the deadline of a reply given to {@link #bounded}; {@link #deadline} by default} */
  protected ClientStalls.Deadline boundDeadline() {
    return deadline();
  }

  /**
   * Waits for a reply within a deadline that one or several replies of a call share; a late reply
   * is cancelled, so a command not sent yet never is and a late answer is dropped.
   *
   * @param reply the pending reply
   * @param deadline the call's deadline
   * @param <T> the reply's type
   * @return the reply's value
   * @throws RuntimeException the reply's failure, or an {@link IllegalStateException} for a
   *     timeout, a stall or an interrupt
   */
  protected final <T> T await(Future<T> reply, ClientStalls.Deadline deadline) {
    try {
      try {
        return deadline.await(reply);
      } catch (TimeoutException expired) {
        reply.cancel(true);
        throw timedOut(expired);
      }
    } catch (ExecutionException e) {
      Throwable cause = translate(e.getCause());
      throw cause instanceof RuntimeException r
          ? r
          : new IllegalStateException(cause.getMessage(), cause);
    } catch (InterruptedException e) {
      reply.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** A command's timeout, or the client's stall ({@link ClientStalls}), as a node failure. */
  private IllegalStateException timedOut(TimeoutException e) {
    return new IllegalStateException(
        ClientStalls.isStall(e) ? e.getMessage() : timedOutMessage(), e);
  }

  private String timedOutMessage() {
    return "command timed out after " + Math.max(1, timeout.toMillis()) + " ms";
  }

  /**
   * {@return a reply bounded by {@link #boundDeadline}: a late one is cancelled, and the future
   * fails with a {@link CacheNodeException} (a {@link ValueRefusedException} stays one)}
   *
   * @param reply the pending reply
   * @param operation the call, as failures name it ({@code get}, {@code put})
   * @param <T> the reply's type
   */
  protected final <T> CompletableFuture<T> bounded(CompletionStage<T> reply, String operation) {
    CompletableFuture<T> future = reply.toCompletableFuture();
    return boundDeadline()
        .bound(future)
        .handle(
            (value, failed) -> {
              if (failed == null) {
                return value;
              }
              Throwable cause = translate(unwrap(failed));
              if (cause instanceof CacheNodeException || cause instanceof ValueRefusedException) {
                throw (RuntimeException) cause;
              }
              if (cause instanceof TimeoutException) {
                future.cancel(true);
              }
              throw failure(operation, cause);
            });
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /**
   * {@return a client library's failure as the node's: by default as it is} A protocol maps what
   * its library reports in its own terms, such as the library's own timeout firing.
   *
   * @param failure a reply's failure
   */
  protected Throwable translate(Throwable failure) {
    return failure;
  }

  /**
   * {@return a call's failure as the cache layer sees it, naming the node, the operation and the
   * server}
   *
   * @param operation the call ({@code get}, {@code put}, {@code ping})
   * @param e why it failed
   */
  protected final CacheNodeException failure(String operation, Throwable e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new CacheNodeException(id, operation + " failed on " + endpoint + ": " + describe(e), e);
  }

  /**
   * {@return why a connection or command failed, in words: a stall or a timeout as such, else the
   * failure's message} A protocol may say more (a refused login).
   *
   * @param failure the failure
   */
  protected String describe(Throwable failure) {
    Throwable e = unwrap(failure);
    if (ClientStalls.isStall(e)) {
      return e.getMessage();
    }
    if (e instanceof TimeoutException) {
      return timedOutMessage();
    }
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }

  /**
   * {@return why a connect failed, in words: a timeout as the connect timeout's, not a command's}
   *
   * @param failure the attempt's failure
   */
  final String describeConnect(Throwable failure) {
    Throwable e = unwrap(failure);
    if (e instanceof TimeoutException && !ClientStalls.isStall(e)) {
      return "connect timed out after " + Connecting.timeout(timeout).toMillis() + " ms";
    }
    return describe(failure);
  }

  /**
   * {@return whether the server answered the failed connect or command with an error (a refused
   * login), as against no answer, a refused or a lost connection; false by default} A protocol
   * whose replies carry errors says which.
   *
   * @param failure the failure
   */
  protected boolean answered(Throwable failure) {
    return false;
  }

  /**
   * {@return the bytes a value or a {@link Marker} is stored as, by the rules of the key's cache}
   *
   * @param routingKey the routing key, whose cache picks the codec
   * @param value a value or a marker
   * @throws ValueRefusedException when the codec refuses the value or it is too large
   */
  protected final byte[] payload(String routingKey, Object value) {
    return value instanceof Marker m ? MarkerBytes.encode(m) : values(routingKey).encode(value);
  }

  /**
   * {@return the value rules of the key's cache}
   *
   * @param routingKey the routing key
   */
  protected final StoredValues values(String routingKey) {
    return codecs.of(routingKey);
  }

  /**
   * {@return the milliseconds a TTL keeps an entry, at least 1; 0 for no expiry: a null TTL, or a
   * century or more}
   *
   * @param ttl the time to live, or null for none
   */
  protected static long expiryMillis(Duration ttl) {
    long millis;
    try {
      millis = ttl == null ? Long.MAX_VALUE : ttl.toMillis();
    } catch (ArithmeticException tooLong) {
      millis = Long.MAX_VALUE;
    }
    return millis >= NO_EXPIRY_MILLIS ? 0 : Math.max(1, millis);
  }
}
