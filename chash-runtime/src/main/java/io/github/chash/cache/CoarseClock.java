package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link System#nanoTime()} as of at most about {@value #TICK_MILLIS} ms ago, read from a volatile
 * field that one daemon thread refreshes: what a local node's hit checks a TTL deadline against.
 *
 * <p>Why: on virtual machines {@code System.nanoTime()} costs 20 to 30 ns, most of a Caffeine hit.
 * The price is precision: the value is never ahead of {@code nanoTime()} and lags it by about a
 * tick (more while the thread waits for a core), so an entry whose deadline was taken from {@code
 * nanoTime()} is never expired early, and at worst served about a tick past its TTL.
 *
 * <p>The thread runs only while some node {@linkplain #acquire uses} the clock. Thread-safe.
 */
final class CoarseClock implements Ticker {
  /**
   * How often the thread refreshes the value: the most an entry may outlive its TTL, give or take
   * scheduling. On 2 busy cores a 1 ms tick made a two-thread hit measurably slower (the thread
   * preempts a caller a thousand times a second; HitPathBenchmark's two-thread cases measure it);
   * at 10 ms it is lost in the noise, and 10 ms is far below the TTLs caches use.
   */
  static final long TICK_MILLIS = 10;

  private static final CoarseClock SHARED = new CoarseClock();

  private volatile long now = System.nanoTime();
  private int users; // guarded by this
  private Thread ticking; // guarded by this

  /** A clock of its own (tests); nodes share {@link #shared()}. */
  CoarseClock() {}

  /** The clock local nodes share. */
  static CoarseClock shared() {
    return SHARED;
  }

  /** Starts using the clock (its thread, if nobody uses it yet); pair with {@link #release}. */
  synchronized CoarseClock acquire() {
    if (users++ == 0) {
      start();
    }
    return this;
  }

  /** Whether the refreshing thread runs. */
  synchronized boolean isTicking() {
    return ticking != null;
  }

  /** One user is done with the clock; the last one stops its thread. */
  synchronized void release() {
    if (users > 0 && --users == 0) {
      ticking.interrupt();
      ticking = null;
    }
  }

  @Override
  public long read() {
    return now;
  }

  private void start() { // guarded by this
    now = System.nanoTime();
    Thread thread = new Thread(this::tick, "chash-coarse-clock");
    thread.setDaemon(true);
    ticking = thread;
    thread.start();
  }

  private void tick() {
    long period = TICK_MILLIS * 1_000_000;
    while (!Thread.currentThread().isInterrupted()) {
      now = System.nanoTime();
      LockSupport.parkNanos(this, period);
    }
  }
}
