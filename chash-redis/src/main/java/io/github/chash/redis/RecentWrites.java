package io.github.chash.redis;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Read-your-writes for a node that reads from replicas: which keys this JVM wrote that a replica
 * may not have yet, whose reads must go to the primary.
 *
 * <p>A write is noted when it finished (succeeded or failed: a failed write's outcome is unknown,
 * so it may have reached the primary). It stays noted until the replicas' replication offsets show
 * that every replica has it ({@link #confirmedBefore}, from {@link ReplicationOffsets}), however
 * long that takes: a replica that lags by seconds keeps this JVM's recent keys on the primary for
 * those seconds, where a fixed time let 600 of 1,200 reads return the older value (issue 40). A
 * write of many keys at once ({@code clear}, a sweep) notes the whole node. The map holds at most
 * {@code capacity} keys: past that, confirmed entries are dropped, and if most are still
 * unconfirmed the whole node reads from the primary until they are (always safe, never unbounded
 * memory). Lock-free and thread-safe.
 */
final class RecentWrites {
  private final int capacity;
  private final LongSupplier clock;

  /** The routing key and when its last write finished, in {@link #clock} nanos. */
  private final ConcurrentHashMap<String, Long> written = new ConcurrentHashMap<>();

  /** Every write finished before this time (clock nanos) is on every replica. */
  private volatile long confirmed;

  /**
   * Every read of the node goes to the primary until the writes before this time are confirmed;
   * before {@link #confirmed} at first, holding nothing.
   */
  private volatile long allHeldAt;

  RecentWrites(int capacity, LongSupplier clock) {
    this.capacity = capacity;
    this.clock = clock;
    this.confirmed = clock.getAsLong(); // nothing was written before
    this.allHeldAt = confirmed - 1;
  }

  /** Notes that a write of {@code key} just finished. */
  void wrote(String key) {
    long now = clock.getAsLong();
    written.merge(key, now, (a, b) -> b - a > 0 ? b : a);
    if (written.size() > capacity) {
      prune(now);
    }
  }

  /** Notes that a write of keys not named (a clear, a sweep) just finished. */
  void wroteAll() {
    holdAll(clock.getAsLong());
  }

  /**
   * The replicas have every write that finished before {@code nanos} (clock time): reads of those
   * keys may go to a replica again. Never moves back.
   */
  synchronized void confirmedBefore(long nanos) {
    if (nanos - confirmed > 0) {
      confirmed = nanos;
    }
  }

  /** Whether a read of {@code key} must go to the primary: a replica may not have its write. */
  boolean needsPrimary(String key) {
    long before = confirmed;
    if (allHeldAt - before >= 0) {
      return true;
    }
    Long at = written.get(key);
    if (at == null) {
      return false;
    }
    if (at - before >= 0) {
      return true;
    }
    written.remove(key, at); // confirmed: forget it, so the map holds only unconfirmed writes
    return false;
  }

  /** The keys held, for tests. */
  int size() {
    return written.size();
  }

  private void prune(long now) {
    long before = confirmed;
    written.values().removeIf(at -> at - before < 0);
    if (written.size() > capacity / 2) {
      // too many unconfirmed writes to track one by one: every read goes to the primary until
      // all of them are confirmed, and the map starts over; held again after the clear for a
      // write noted while it ran
      holdAll(now);
      written.clear();
      holdAll(clock.getAsLong());
    }
  }

  private synchronized void holdAll(long now) {
    if (now - allHeldAt > 0) {
      allHeldAt = now;
    }
  }
}
