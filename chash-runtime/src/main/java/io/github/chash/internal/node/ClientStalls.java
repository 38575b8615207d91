package io.github.chash.internal.node;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * How long this JVM could not run: a node's timeout counts the client's awake time only.
 *
 * <p>A timeout is meant to say "the server did not answer in time". When the client itself cannot
 * run (a CPU quota throttling the pod, a GC pause, a cold JIT, threads queued for a core), a
 * healthy server's reply sits unread in the socket while the clock runs, and a plain timeout blames
 * the server: under a 0.2-CPU quota every healthy node of a ring was ejected on the first burst
 * (issue 27). So a {@link Deadline} grants a call its timeout of time the client was able to run,
 * measured as jHiccup measures it: one daemon thread sleeps a short tick and counts every late
 * wake-up as time the JVM stalled. A frozen server still times out after the timeout of awake time;
 * a reply from a healthy one is read as soon as the client runs again. No call waits longer than
 * {@link Connecting#timeout its connect timeout} (ten timeouts, at least 1 s); one that reaches
 * that bound without its timeout of awake time fails as {@link #stalledFailure stalled}, which
 * never counts against the node.
 *
 * <p>The watch thread's wake-ups show the JVM ran, not that the thread which reads the node's
 * replies did: under a quota, 30 runnable callers can keep a client library's I/O thread queued
 * while the watch thread, asleep most of the time, is scheduled on time. So a node type whose
 * replies are read by threads it can reach passes a {@link IoCheck}: when the timeout of awake time
 * has passed, the deadline asks those threads to run a no-op first. A reply that was read meanwhile
 * is served; one still missing after they ran is the server's fault; when they cannot run before
 * the bound, the call failed as stalled.
 *
 * <p>That the threads ran shows more than that the replies were read: a request the caller handed
 * them is written by them too, so a starved I/O thread may have written it only just before it ran
 * the check's no-op, and a healthy server had no time to answer: a healthy node was ejected so in a
 * cold burst under a quota with the I/O thread queued behind the JIT and a busy application thread
 * (issue 43). So the first check that finds the reply missing starts the timeout once more, from
 * the check: the request was surely on the wire then. A frozen server costs a call two timeouts of
 * awake time before it counts against the node; a node type without an {@link IoCheck} gets no
 * second window, since nothing shows when its request was written.
 */
public final class ClientStalls {
  /** How often the watch thread wakes. */
  private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

  /** A wake-up later than this is a stall; below it is the scheduler's ordinary jitter. */
  private static final long SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(3);

  /** The watch thread's last wake-up and the stalls it counted up to then, read together. */
  private record Tick(long atNanos, long stalledNanos) {}

  private static volatile Tick last = new Tick(System.nanoTime(), 0);
  private static volatile boolean watching;

  private ClientStalls() {}

  /**
   * {@return the nanoseconds this JVM stalled since the watch started, counting a stall under way
   * (the watch thread itself not run for longer than a tick)}
   */
  public static long stalledNanos() {
    watch();
    Tick tick = last;
    long late = System.nanoTime() - tick.atNanos - TICK_NANOS;
    return tick.stalledNanos + (late > SLACK_NANOS ? late : 0);
  }

  private static void watch() {
    if (watching) {
      return;
    }
    synchronized (ClientStalls.class) {
      if (watching) {
        return;
      }
      Thread thread = new Thread(ClientStalls::run, "chash-stall-watch");
      thread.setDaemon(true);
      thread.start();
      last = new Tick(System.nanoTime(), 0);
      watching = true;
    }
  }

  private static void run() {
    while (true) {
      LockSupport.parkNanos(TICK_NANOS);
      Tick tick = last;
      long now = System.nanoTime();
      long late = now - tick.atNanos - TICK_NANOS;
      last = new Tick(now, tick.stalledNanos + (late > SLACK_NANOS ? late : 0));
    }
  }

  /**
   * {@return a deadline starting now: {@code timeout} of the client's awake time}
   *
   * @param timeout the node's command timeout
   */
  public static Deadline deadline(Duration timeout) {
    return deadline(timeout, IoCheck.NONE);
  }

  /**
   * {@return a deadline starting now: {@code timeout} of the client's awake time, a timeout blamed
   * on the node only once {@code io} shows the threads that read its replies could run}
   *
   * @param timeout the node's command timeout
   * @param io the check of the threads that read the node's replies
   */
  public static Deadline deadline(Duration timeout, IoCheck io) {
    return new Deadline(timeout.toNanos(), Connecting.timeout(timeout).toNanos(), io);
  }

  /** Whether the threads that read a node's replies can run. */
  @FunctionalInterface
  public interface IoCheck {
    /** For clients whose I/O threads are out of reach: the stall watch alone decides. */
    IoCheck NONE = () -> CompletableFuture.completedFuture(null);

    /**
     * {@return a future completed once every thread that reads this node's replies has run a task
     * submitted now, so any reply that had arrived before has been read}
     */
    CompletableFuture<?> ran();
  }

  /**
   * {@return the failure of a call that reached its bound without its timeout of awake time: the
   * client stalled, not the node}
   *
   * @param waitedNanos how long the call waited
   */
  public static TimeoutException stalledFailure(long waitedNanos) {
    return new ClientStalledException(waitedNanos);
  }

  /**
   * {@return whether the failure (or one of its causes) says the client stalled}
   *
   * @param failure a node call's failure
   */
  public static boolean isStall(Throwable failure) {
    return hasCause(failure, ClientStalledException.class);
  }

  /**
   * {@return whether the failure (or one of its causes) is a timeout: the one failure a client that
   * cannot keep up (CPU, GC, a saturated event loop) also produces, unlike a refused or reset
   * connection or an error reply}
   *
   * @param failure a node call's failure
   */
  public static boolean isTimeout(Throwable failure) {
    return hasCause(failure, TimeoutException.class);
  }

  private static boolean hasCause(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  /** The time a call may still wait for its reply. */
  public static final class Deadline {
    private final long startNanos;
    private final long timeoutNanos;
    private final long boundNanos;
    private final IoCheck io;

    /** Where the timeout of awake time is counted from; replies sharing the deadline share it. */
    private volatile Window window;

    /**
     * A timeout's count of awake time: its start, the stalls counted by then, and whether it starts
     * at an {@link IoCheck} that showed the request written.
     */
    private record Window(long startNanos, long stalledAtStart, boolean afterIoCheck) {
      static Window now(boolean afterIoCheck) {
        long stalled = stalledNanos();
        return new Window(System.nanoTime(), stalled, afterIoCheck);
      }

      /** The part of the time since the window's start that this JVM was able to run. */
      long awakeNanos() {
        return System.nanoTime() - startNanos - (stalledNanos() - stalledAtStart);
      }
    }

    private Deadline(long timeoutNanos, long boundNanos, IoCheck io) {
      this.window = Window.now(false);
      this.startNanos = window.startNanos;
      this.timeoutNanos = timeoutNanos;
      this.boundNanos = boundNanos;
      this.io = io;
    }

    /**
     * {@return the nanoseconds left to wait: the timeout less the awake time so far, never past the
     * bound; 0 when none are}
     */
    public long remainingNanos() {
      long waited = System.nanoTime() - startNanos;
      return Math.max(0, Math.min(timeoutNanos - window.awakeNanos(), boundNanos - waited));
    }

    /**
     * {@return the failure when no time is left: a timeout when the call had its timeout of awake
     * time, else {@link #stalledFailure}; null while time is left}
     */
    public TimeoutException expired() {
      long waited = System.nanoTime() - startNanos;
      long awake = window.awakeNanos();
      if (awake < timeoutNanos && waited < boundNanos) {
        return null;
      }
      return awake >= timeoutNanos
          ? new TimeoutException(
              "command timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms")
          : stalledFailure(waited);
    }

    /**
     * Called once an {@link IoCheck} ran and the reply is still missing: the first time, the
     * request may have been written only just before the check (see {@link ClientStalls}), so the
     * timeout starts again from now.
     *
     * @return whether the call waits on: false once the timeout counted from a check has passed
     */
    private boolean countAgainFromTheCheck() {
      if (io == IoCheck.NONE || window.afterIoCheck) {
        return false;
      }
      window = Window.now(true);
      return true;
    }

    /**
     * {@return the reply, failed with {@link #expired}'s exception when the deadline passes first;
     * the timer checks again whenever the client stalled meanwhile, and a timeout is reported only
     * after the {@link IoCheck} shows the reply was not left unread}
     *
     * @param reply the pending reply
     * @param <T> its type
     */
    public <T> CompletableFuture<T> bound(CompletableFuture<T> reply) {
      check(reply);
      return reply;
    }

    /**
     * Waits for the reply within this deadline (as {@link #bound}, on the calling thread).
     *
     * @param reply the pending reply
     * @param <T> its type
     * @return the reply's value
     * @throws TimeoutException when the deadline passed first: {@link #isStall a stall} or the
     *     node's timeout
     * @throws ExecutionException when the reply failed
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public <T> T await(Future<T> reply)
        throws TimeoutException, ExecutionException, InterruptedException {
      while (true) {
        try {
          return reply.get(remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          TimeoutException expired = expired();
          if (expired != null) {
            if (!isStall(expired) && !ioRan()) {
              expired = stalledFailure(System.nanoTime() - startNanos);
            }
            if (!reply.isDone() && (isStall(expired) || !countAgainFromTheCheck())) {
              throw expired;
            }
          }
        }
      }
    }

    private <T> void check(CompletableFuture<T> reply) {
      if (reply.isDone()) {
        return;
      }
      TimeoutException expired = expired();
      if (expired == null) {
        CompletableFuture.delayedExecutor(remainingNanos(), TimeUnit.NANOSECONDS)
            .execute(() -> check(reply));
      } else if (isStall(expired)) {
        reply.completeExceptionally(expired);
      } else {
        io.ran()
            .orTimeout(boundLeftNanos(), TimeUnit.NANOSECONDS)
            .whenComplete(
                (ran, notRun) -> {
                  if (notRun != null) {
                    reply.completeExceptionally(stalledFailure(System.nanoTime() - startNanos));
                  } else if (!reply.isDone() && countAgainFromTheCheck()) {
                    check(reply);
                  } else {
                    reply.completeExceptionally(expired);
                  }
                });
      }
    }

    /** {@return whether the threads that read the replies ran a task before the bound} */
    private boolean ioRan() throws InterruptedException {
      try {
        io.ran().get(boundLeftNanos(), TimeUnit.NANOSECONDS);
        return true;
      } catch (TimeoutException | ExecutionException e) {
        return false;
      }
    }

    private long boundLeftNanos() {
      return Math.max(0, boundNanos - (System.nanoTime() - startNanos));
    }
  }

  /** A call's time ran out while the client, not the node, could not run. */
  private static final class ClientStalledException extends TimeoutException {
    private static final long serialVersionUID = 1L;

    ClientStalledException(long waitedNanos) {
      super(
          "no reply read within "
              + TimeUnit.NANOSECONDS.toMillis(waitedNanos)
              + " ms while this client could not run (CPU quota, GC pause, its I/O threads queued):"
              + " not the node's failure");
    }
  }
}
