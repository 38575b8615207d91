package io.github.chash.memcached;

import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A memcached server's clock as this JVM reads it: the clock in which a node writes and judges its
 * entries' deadlines, and computes memcached's absolute expirations.
 *
 * <p>Why the server's: a deadline is written by one JVM and judged by the others. In each JVM's
 * wall clock, a writer whose clock is behind made its entries misses for every other JVM (5 s
 * behind and a 3 s TTL: none of 500 read), and one whose clock is ahead told them an entry had
 * seconds more to live than it had. Every JVM reads the same server's clock instead, so their
 * deadlines agree whatever their wall clocks say; memcached counts its own expirations in that
 * clock too.
 *
 * <p>The bound: memcached tells its clock in {@code stats} as whole seconds ({@code time}) of a
 * counter it advances once a second, so a reading takes the middle of that second, at the middle of
 * the round trip: it is within half a second and half the round trip of the server's counter. Two
 * JVMs' deadlines therefore agree within a second and a round trip; a read may take an entry as
 * live up to that much past its TTL, or as gone that much early. A JVM's own writes and reads use
 * one reading, so among them the deadline keeps its milliseconds.
 *
 * <p>A reading is anchored to {@link System#nanoTime()}: a step of this JVM's wall clock after it
 * changes nothing. The node reads the clock before the first call of each connection needs it
 * (again after every reconnect: the server may be another process), and once a minute in the
 * background, as the clocks drift apart (a second later after a reading whose round trip was slow).
 * A server whose {@code stats} tell no {@code time} leaves the deadlines in this JVM's wall clock,
 * as they were before, with a warning. Thread-safe.
 */
final class ServerClock {
  /** How long a reading is trusted before it is taken again, in the background. */
  static final long REFRESH_NANOS = TimeUnit.MINUTES.toNanos(1);

  /**
   * A round trip longer than this (a stalled JVM or server) makes a poor reading, up to half of it
   * off: it is taken again a second later rather than a minute.
   */
  static final long SLOW_ROUND_TRIP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /** When a slow reading is taken again. */
  static final long RETRY_SLOW_NANOS = TimeUnit.SECONDS.toNanos(1);

  /**
   * How far this JVM's wall clock may be off the server's before a warning. A JVM whose clock is
   * exact reads an offset of up to 2.5 s: memcached's counter starts at a whole second of its wall
   * clock and ticks once a second at a phase of its own, so it may be up to 2 s behind the clock it
   * came from, and a reading is within half a second of it.
   */
  static final long WARN_OFFSET_MILLIS = 3_000;

  /**
   * A reading: the server's time, in milliseconds, at {@code atNanos} of {@link System#nanoTime}.
   */
  private record Reading(long serverMillis, long atNanos) {}

  private final String nodeId;
  private final String endpoint;
  private final Clock wallClock;
  private final System.Logger log;

  /** The last reading; null until the first. */
  private volatile Reading reading;

  /** Whether the next call must read the clock first: none yet, or the connection was replaced. */
  private volatile boolean mustRead = true;

  /** When the next background reading is due, in {@link System#nanoTime} time. */
  private final AtomicLong refreshAtNanos = new AtomicLong();

  /** Whether the warning of a wall clock far off the server's (or of no clock) was logged. */
  private volatile boolean warned;

  ServerClock(String nodeId, String endpoint, Clock wallClock, System.Logger log) {
    this.nodeId = nodeId;
    this.endpoint = endpoint;
    this.wallClock = wallClock;
    this.log = log;
  }

  /** {@return whether a call must read the clock before it writes or judges a deadline} */
  boolean mustRead() {
    return mustRead;
  }

  /** {@return whether a background reading is due now; true once per due reading} */
  boolean claimRefresh() {
    long due = refreshAtNanos.get();
    long now = System.nanoTime();
    return now - due >= 0 && refreshAtNanos.compareAndSet(due, now + REFRESH_NANOS);
  }

  /** The connection was (re)established: the next call reads the clock before it goes on. */
  void connected() {
    mustRead = true;
  }

  /**
   * Takes a reading from a {@code stats} reply, sent at {@code sentNanos} and received at {@code
   * receivedNanos}; a reply without {@code time} leaves the deadlines in this JVM's wall clock.
   */
  void read(Map<InetSocketAddress, Map<String, String>> stats, long sentNanos, long receivedNanos) {
    long atNanos = sentNanos + (receivedNanos - sentNanos) / 2;
    long wallMillis =
        wallClock.millis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - atNanos);
    String time = null;
    if (stats != null) {
      for (Map<String, String> server : stats.values()) {
        time = server.get("time");
      }
    }
    long serverMillis;
    if (time == null) {
      serverMillis = wallMillis;
      if (!warned) {
        warned = true;
        log.log(
            Level.WARNING,
            () ->
                "node \""
                    + nodeId
                    + "\": "
                    + endpoint
                    + " tells no time in its stats: entry deadlines follow this JVM's clock,"
                    + " which must agree with the other JVMs' clocks");
      }
    } else {
      // the middle of the whole second the server's counter shows
      serverMillis = Long.parseLong(time.trim()) * 1000 + 500;
      offset(serverMillis - wallMillis, receivedNanos - sentNanos);
    }
    reading = new Reading(serverMillis, atNanos);
    mustRead = false;
    boolean slow = receivedNanos - sentNanos > SLOW_ROUND_TRIP_NANOS;
    refreshAtNanos.set(receivedNanos + (slow ? RETRY_SLOW_NANOS : REFRESH_NANOS));
  }

  /** Warns once while this JVM's wall clock is far off the server's. */
  private void offset(long offsetMillis, long roundTripNanos) {
    log.log(
        Level.DEBUG,
        () ->
            "node \""
                + nodeId
                + "\": this JVM's clock is "
                + offsetMillis
                + " ms off memcached's (round trip "
                + TimeUnit.NANOSECONDS.toMicros(roundTripNanos)
                + " µs)");
    if (Math.abs(offsetMillis) <= WARN_OFFSET_MILLIS) {
      warned = false;
      return;
    }
    if (!warned) {
      warned = true;
      log.log(
          Level.WARNING,
          () ->
              String.format(
                  Locale.ROOT,
                  "node \"%s\": this JVM's clock is about %.1f s %s the clock of %s; entry deadlines"
                      + " follow the server's clock, so they hold, but the clocks should agree"
                      + " (NTP)",
                  nodeId,
                  Math.abs(offsetMillis) / 1000.0,
                  offsetMillis > 0 ? "behind" : "ahead of",
                  endpoint));
    }
  }

  /**
   * {@return the server's time now, epoch milliseconds, from the last reading}
   *
   * @throws IllegalStateException if the clock was never read
   */
  long millis() {
    Reading r = reading;
    if (r == null) {
      throw new IllegalStateException("the clock of " + endpoint + " was never read");
    }
    return r.serverMillis() + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - r.atNanos());
  }
}
