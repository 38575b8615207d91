package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import java.util.concurrent.TimeUnit;

/**
 * How long a sync load whose lease another JVM holds waits for that JVM's fill before it loads for
 * itself (Facebook's memcache: a client refused a lease "waits a short time and retries", so a hot
 * key costs the fleet one load per expiry, not one per JVM). The other JVM took its lease first, so
 * its load, of the same key through the same loader, should end within about one load's time: the
 * wait lasts at most twice this cache's recent load time in this JVM, at least {@link #MIN_NANOS}
 * and at most {@link #MAX_NANOS}, and looks again every sixteenth of that. A fill that comes later
 * (the other JVM is paused, or its loader is slow this time) costs this JVM its own load, not
 * filled, as before the wait.
 *
 * <p>What the wait finds is read as any hit is, after the wait: it is no older than a write
 * completed before it (see {@link Marker}), so waiting changes how many loads run, never what a
 * caller may be served. A JVM that will not read what the target holds (a key it marked unknown, a
 * value its codec refuses) waits the whole limit in vain, then loads as before: a cost on such keys
 * only, kept rather than a second rule that reads what the node holds.
 */
final class LeaseWait {
  /** The pause between two looks; the simulation's scheduler stands in for the sleep. */
  interface Pause {
    /** Sleeps for about {@code nanos}; throws when the thread is interrupted. */
    void pause(long nanos) throws InterruptedException;
  }

  /** The real pause. */
  static final Pause SLEEP = TimeUnit.NANOSECONDS::sleep;

  static final long MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** The wait before this JVM has timed a load of the cache. */
  static final long FIRST_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final Ticker ticker;
  private final Pause pause;

  /**
   * This cache's load time in this JVM, smoothed over about the last eight loads; 0 before the
   * first. Updated without a lock: a lost update loses one sample.
   */
  private volatile long loadNanos;

  LeaseWait(Ticker ticker, Pause pause) {
    this.ticker = ticker;
    this.pause = pause;
  }

  /** {@return the clock's time, to give {@link #loaded} when the load ends} */
  long now() {
    return ticker.read();
  }

  /** A load of the cache that began at {@code started} ended (well or not). */
  void loaded(long started) {
    long took = Math.max(0, ticker.read() - started);
    long before = loadNanos;
    loadNanos = before == 0 ? took : before - (before >> 3) + (took >> 3);
  }

  /** {@return the longest wait for another JVM's fill, from the loads timed so far} */
  long limitNanos() {
    long load = loadNanos;
    return load == 0 ? FIRST_NANOS : Math.min(MAX_NANOS, Math.max(MIN_NANOS, 2 * load));
  }

  /** A wait begun now, for one load. */
  Waiting begin() {
    return new Waiting(limitNanos() / STEPS);
  }

  /** How many times a wait looks again: the limit is spent in this many equal steps. */
  static final int STEPS = 16;

  /**
   * One caller's wait: counted in steps, not read off the clock, so that a clock that does not move
   * (a test's) cannot make it endless.
   */
  final class Waiting {
    private final long step;
    private int left = STEPS;

    private Waiting(long step) {
      this.step = Math.max(1, step);
    }

    /**
     * Pauses one step, unless the wait is over.
     *
     * @return whether to look again; false when the steps are spent or the thread was interrupted
     *     (the interrupt is kept for the caller's code)
     */
    boolean pause() {
      if (left == 0) {
        return false;
      }
      left--;
      try {
        LeaseWait.this.pause.pause(step);
        return true;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }
}
