package io.github.chash.redis;

import java.util.concurrent.TimeUnit;

/**
 * A Redis server's clock ({@code TIME}) as this JVM reads it, for the deadline a put carries to the
 * server: the server refuses a write that reaches it after the deadline, so a request that leaves
 * or arrives after its caller gave up (a long pause of this JVM, a network path that held it) never
 * lands over a newer write another JVM completed meanwhile.
 *
 * <p>Why it holds: a caller gives up no earlier than its call's start plus the node's timeout (the
 * timeout counts this JVM's awake time, so a stall only makes it later). The deadline is that
 * instant in the server's clock, less every error of the reading: half the round trip it was taken
 * in, and {@link #DRIFT_PER_SECOND} of the time since, for the two clocks drift apart. A write the
 * server applies before it therefore landed while its caller still waited, concurrent with any
 * write that completed meanwhile, never after it.
 *
 * <p>A reading is anchored to {@link System#nanoTime()}: a step of this JVM's wall clock after it
 * changes nothing. The node takes one with each vetting of the server's incarnation (after every
 * reconnect: the server may be another process, on another host) and every {@link #REFRESH_MILLIS}
 * in the background (on a Sentinel shard, from each second's vetting of its heirs). A step of the
 * server's own clock is not seen until the next reading: backwards, late writes are taken for that
 * long; forwards, writes are refused (misses, their keys unknown) until then. Thread-safe.
 */
final class RedisServerTime {
  /** How often the node reads the server's clock again in the background. */
  static final long REFRESH_MILLIS = 5_000;

  /**
   * How far the two clocks may drift apart per second: 500 µs, the most an NTP daemon slews a
   * clock, against the few µs two disciplined clocks differ by in practice.
   */
  static final double DRIFT_PER_SECOND = 500e-6;

  /** A reading: the server's clock in µs at the middle of a round trip, when it was taken. */
  private record Reading(long serverMicros, long atNanos, long roundTripNanos) {}

  private volatile Reading reading;

  /**
   * Takes a reading.
   *
   * @param serverMicros the server's {@code TIME} in µs
   * @param sentNanos {@link System#nanoTime()} when its command was sent
   * @param repliedNanos {@link System#nanoTime()} when its reply came
   */
  void read(long serverMicros, long sentNanos, long repliedNanos) {
    reading =
        new Reading(
            serverMicros, sentNanos + (repliedNanos - sentNanos) / 2, repliedNanos - sentNanos);
  }

  /** Forgets the reading: the server may be another process now. */
  void forget() {
    reading = null;
  }

  /**
   * {@return the deadline, in the server's clock (µs), of a write whose call starts now and whose
   * caller gives up after {@code timeoutNanos}; 0 (none) without a reading}
   */
  long deadlineMicros(long timeoutNanos) {
    return deadlineMicros(timeoutNanos, System.nanoTime());
  }

  /** {@link #deadlineMicros(long)} for a call started at {@code nowNanos}. */
  long deadlineMicros(long timeoutNanos, long nowNanos) {
    Reading r = reading;
    if (r == null) {
      return 0;
    }
    long sinceNanos = Math.max(0, nowNanos - r.atNanos());
    long errorNanos = r.roundTripNanos() / 2 + (long) (sinceNanos * DRIFT_PER_SECOND);
    long deadline =
        r.serverMicros() + TimeUnit.NANOSECONDS.toMicros(sinceNanos + timeoutNanos - errorNanos);
    return Math.max(1, deadline);
  }
}
