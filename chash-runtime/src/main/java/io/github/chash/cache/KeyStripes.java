package io.github.chash.cache;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Orders the fills of this JVM after its writes, key by key: a fill (storing a loaded value, or a
 * copy from a previous owner) lands only if no write of its key (put, evict, clear) began since the
 * load did, and no write can begin while a fill of its key is landing.
 *
 * <p>Each stripe of keys (by the routing key's hash) has a stamp, advanced when a write begins, and
 * a lock, held by a fill from its check of the stamp to the end of its node call and by a writer
 * while it advances the stamp. So either the write began first (the fill sees the new stamp and
 * stores nothing) or the fill landed first (the write, which begins after, replaces it): a read
 * that begins after a write completed never sees a value loaded before it. A writer waits at most
 * for one fill's node call of its stripe; readers never wait. Keys sharing a stripe only skip each
 * other's fills now and then. Thread-safe.
 */
final class KeyStripes {
  private static final int STRIPES = 1024;

  /** One stamp per 64-byte line, so that writers of different stripes do not share a line. */
  private static final int SPREAD = 8;

  private final AtomicLongArray stamps = new AtomicLongArray(STRIPES * SPREAD);
  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  KeyStripes() {
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** The key's stripe's stamp, taken before a load. */
  long stamp(String routingKey) {
    return stamps.get(stripe(routingKey) * SPREAD);
  }

  /** A write of the key begins: loads that began before it must not fill. */
  void beginWrite(String routingKey) {
    int stripe = stripe(routingKey);
    ReentrantLock lock = locks[stripe];
    lock.lock();
    try {
      stamps.incrementAndGet(stripe * SPREAD);
    } finally {
      lock.unlock();
    }
  }

  /** A write of every key (a clear) begins: no load under way may fill. */
  void beginWriteOfAll() {
    for (int stripe = 0; stripe < STRIPES; stripe++) {
      locks[stripe].lock();
      try {
        stamps.incrementAndGet(stripe * SPREAD);
      } finally {
        locks[stripe].unlock();
      }
    }
  }

  /**
   * Runs {@code fill} if no write of the key began since {@code stamp} was taken, holding the key's
   * stripe so that none begins until it is done.
   *
   * @return what {@code fill} returned, or false when it did not run
   */
  boolean fillIfUnchanged(String routingKey, long stamp, BooleanSupplier fill) {
    int stripe = stripe(routingKey);
    ReentrantLock lock = locks[stripe];
    lock.lock();
    try {
      return stamps.get(stripe * SPREAD) == stamp && fill.getAsBoolean();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The bulk form of {@link #fillIfUnchanged}: runs {@code fill} with the keys whose stamps are
   * unchanged, holding every stripe they fall in (taken in stripe order, so two bulk fills never
   * wait for each other in a cycle).
   */
  <T> T fillAllIfUnchanged(
      java.util.Map<String, Long> stampsByKey,
      java.util.function.Function<java.util.Set<String>, T> fill) {
    java.util.BitSet held = new java.util.BitSet(STRIPES);
    stampsByKey.keySet().forEach(key -> held.set(stripe(key)));
    for (int s = held.nextSetBit(0); s >= 0; s = held.nextSetBit(s + 1)) {
      locks[s].lock();
    }
    try {
      java.util.Set<String> unchanged = new java.util.LinkedHashSet<>();
      stampsByKey.forEach(
          (key, stamp) -> {
            if (stamp(key) == stamp) {
              unchanged.add(key);
            }
          });
      return fill.apply(unchanged);
    } finally {
      for (int s = held.nextSetBit(0); s >= 0; s = held.nextSetBit(s + 1)) {
        locks[s].unlock();
      }
    }
  }

  /**
   * Whether {@code thread} waits for a stripe that another thread holds (for a test's scheduler: a
   * waiter whose stripe was just released is about to run, one still held back is not).
   */
  boolean holdsBack(Thread thread) {
    for (ReentrantLock lock : locks) {
      if (lock.hasQueuedThread(thread)) {
        return lock.isLocked();
      }
    }
    return false;
  }

  private static int stripe(String routingKey) {
    int h = routingKey.hashCode();
    return (h ^ (h >>> 16)) & (STRIPES - 1);
  }
}
