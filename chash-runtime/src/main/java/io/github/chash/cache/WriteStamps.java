package io.github.chash.cache;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts the writes of each stripe of keys in this JVM, so that filling the cache after a load can
 * tell whether a write (put, evict, clear) of the key came in between: the loaded value may then be
 * older than what was written, and must not be stored. Striped by the routing key's hash: keys
 * sharing a stripe only skip each other's fills now and then. Thread-safe.
 */
final class WriteStamps {
  private static final int STRIPES = 1024;

  /** One stamp per 64-byte line, so that writers of different stripes do not share a line. */
  private static final int SPREAD = 8;

  private final AtomicLongArray stamps = new AtomicLongArray(STRIPES * SPREAD);

  /** The key's stripe's stamp, taken before a load. */
  long stamp(String routingKey) {
    return stamps.get(slot(routingKey));
  }

  /** A write of the key starts: loads that began before it must not fill. */
  void advance(String routingKey) {
    stamps.incrementAndGet(slot(routingKey));
  }

  /** A write of many keys (a clear) starts: no load under way may fill. */
  void advanceAll() {
    for (int i = 0; i < STRIPES; i++) {
      stamps.incrementAndGet(i * SPREAD);
    }
  }

  private static int slot(String routingKey) {
    int h = routingKey.hashCode();
    return ((h ^ (h >>> 16)) & (STRIPES - 1)) * SPREAD;
  }
}
