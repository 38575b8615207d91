package io.github.chash.redis;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Read-your-writes for a node that reads from replicas: which keys this JVM wrote within the last
 * {@code lag}, whose reads must go to the primary because a replica may not have the write yet.
 *
 * <p>A write is noted when it finished (succeeded or failed: a failed write's outcome is unknown,
 * so it may have reached the primary). A write of many keys at once ({@code clear}, a sweep) notes
 * the whole node. The map holds at most {@code capacity} keys: past that, expired entries are
 * dropped, and if most are still fresh the whole node reads from the primary for {@code lag}
 * instead (always safe, never unbounded memory). Lock-free and thread-safe.
 */
final class RecentWrites {
  private final long lagNanos;
  private final int capacity;
  private final LongSupplier clock;

  /** The routing key and when its last write finished, in {@link #clock} nanos. */
  private final ConcurrentHashMap<String, Long> written = new ConcurrentHashMap<>();

  /** Until when (clock nanos) every read of the node goes to the primary. */
  private volatile long allUntil;

  /** Whether any read may go to a replica yet: {@link #allUntil} is unset until the first. */
  private volatile boolean anyAll;

  RecentWrites(Duration lag, int capacity, LongSupplier clock) {
    this.lagNanos = lag.toNanos();
    this.capacity = capacity;
    this.clock = clock;
  }

  /** Notes that a write of {@code key} just finished. */
  void wrote(String key) {
    long now = clock.getAsLong();
    written.merge(key, now, Math::max);
    if (written.size() > capacity) {
      prune(now);
    }
  }

  /** Notes that a write of keys not named (a clear, a sweep) just finished. */
  void wroteAll() {
    holdAll(clock.getAsLong());
  }

  /** Whether a read of {@code key} must go to the primary: this JVM wrote it within the lag. */
  boolean needsPrimary(String key) {
    long now = clock.getAsLong();
    if (anyAll && now - allUntil < 0) {
      return true;
    }
    Long at = written.get(key);
    if (at == null) {
      return false;
    }
    if (now - at < lagNanos) {
      return true;
    }
    written.remove(key, at); // expired: forget it, so the map holds only recent writes
    return false;
  }

  /** The keys held, for tests. */
  int size() {
    return written.size();
  }

  private void prune(long now) {
    written.values().removeIf(at -> now - at >= lagNanos);
    if (written.size() > capacity / 2) {
      // too many fresh writes to track one by one: every read goes to the primary for a lag,
      // which covers all of them, and the map starts over; held again after the clear for a
      // write noted while it ran
      holdAll(now);
      written.clear();
      holdAll(clock.getAsLong());
    }
  }

  private synchronized void holdAll(long now) {
    long until = now + lagNanos;
    if (!anyAll || until - allUntil > 0) {
      allUntil = until;
    }
    anyAll = true;
  }
}
