package io.github.chash.cache;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The longest time to live of any entry a manager wrote: how long a leftover copy can outlive a
 * membership change on a node that cannot list its keys (memcached), where no sweep can find it.
 * Thread-safe; a write costs one volatile read unless it sets a new longest.
 */
final class Lifetimes {
  /** An entry was written without expiry: leftovers may live for ever. */
  static final long FOREVER = Long.MAX_VALUE;

  private final AtomicLong longestNanos = new AtomicLong();

  /** An entry was written with this TTL ({@code null}: no expiry). */
  void wrote(Duration ttl) {
    long nanos = ttl == null ? FOREVER : saturatedNanos(ttl);
    if (nanos > longestNanos.get()) {
      longestNanos.accumulateAndGet(nanos, Math::max);
    }
  }

  /** {@return the longest TTL written so far, in nanos; {@link #FOREVER} for none} */
  long longestNanos() {
    return longestNanos.get();
  }

  private static long saturatedNanos(Duration ttl) {
    try {
      return ttl.toNanos();
    } catch (ArithmeticException e) {
      return FOREVER;
    }
  }
}
