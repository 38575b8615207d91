package io.github.chash.cache;

import java.util.function.UnaryOperator;

/**
 * Holds the manager's current {@link Routing}: readers take it with one volatile read, changes
 * (ejections, readmissions, closing) are serialised and each publishes the next generation.
 */
final class Router {
  private volatile Routing current;

  /**
   * The migration window of the current configuration: how long a tombstone lives (see {@link
   * Marker}), so that every JVM still consulting the key's previous owner sees it.
   */
  volatile java.time.Duration window = java.time.Duration.ZERO;

  /**
   * What a key deleted at its owner holds there: a tombstone for the migration {@link #window} (a
   * JVM on a newer ring that made a copy of the key elsewhere reads it there and knows that copy is
   * older), or nothing (null) when there are no windows.
   */
  Marker deleted() {
    return window.isZero() ? null : Marker.tombstone();
  }

  /**
   * How long a {@link Marker#vouch} lives: two windows. A vouch is written after its writer's ring
   * change, and the JVMs that consult the previous owner keep doing so until their own windows end,
   * each at most one window after the last of them changed, and the rollout of a change fits in a
   * window (operations.md): so no JVM in its window finds a vouch expired and misses a moved key
   * until its next write.
   */
  java.time.Duration vouchTtl() {
    return window.multipliedBy(2);
  }

  /**
   * Deletes the key's copy on the node as a delete at its owner must be made ({@link #deleted}):
   * within windows, on a node with conditional calls, the window's tombstone takes its place, so
   * that a JVM on a newer ring reading the node as the key's previous owner never takes "nothing"
   * there for "no newer write" (used by the clean-up of copies of unknown state and by the sweep).
   *
   * @throws RuntimeException what the node's call throws
   */
  void erase(NodeSlot slot, String routingKey) {
    Marker tombstone = slot.conditionalFor(routingKey) ? deleted() : null;
    if (tombstone != null) {
      slot.node.put(routingKey, tombstone, window);
    } else {
      slot.node.evict(routingKey);
    }
  }

  Router(Routing initial) {
    this.current = initial;
  }

  Routing current() {
    return current;
  }

  /**
   * The routing for an operation on a cache.
   *
   * @throws IllegalStateException once the manager is closed, naming the cache
   */
  Routing forCache(String cache) {
    Routing r = current;
    if (r.closed) {
      throw new IllegalStateException(
          "cache \"" + cache + "\" cannot be used: its ShardedCacheManager was closed");
    }
    return r;
  }

  /** Publishes {@code change} applied to the current routing; returns what it published. */
  synchronized Routing update(UnaryOperator<Routing> change) {
    Routing next = change.apply(current);
    current = next;
    return next;
  }
}
