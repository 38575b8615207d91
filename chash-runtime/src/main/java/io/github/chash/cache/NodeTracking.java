package io.github.chash.cache;

/**
 * A node's invalidation channel as the near caches see it ({@link Invalidations}): a session number
 * that moves on whenever tracking goes on or off, odd while it is on. A near entry keeps the
 * session it was read in and is served only while that session lasts, so a lost channel drops every
 * entry read from the node at once, without a walk over the entries. Thread-safe.
 */
final class NodeTracking {
  /** Even: off (never on, or lost); odd: on. */
  private volatile long session;

  /** Whether the node has a channel ({@link CacheNode#track} said so); set before it serves. */
  volatile boolean tracked;

  long session() {
    return session;
  }

  /** {@return whether tracking was on in {@code session}} */
  static boolean on(long session) {
    return (session & 1) == 1;
  }

  /** Tracking is on (again): a new session. */
  synchronized void on() {
    if (!on(session)) {
      session++;
    }
  }

  /** Changes may have gone unreported: the session ends, and with it every entry read in it. */
  synchronized void off() {
    if (on(session)) {
      session++;
    }
  }
}
