package io.github.chash.cache;

/**
 * What a node with an invalidation channel tells this JVM's near caches about its keys ({@link
 * CacheNode#track}): that tracking is on, which keys changed on the server, and that changes may
 * have gone unreported. A near cache serves an entry read from a node only while the node's
 * tracking has stayed on since the entry was read, and drops an entry as soon as its key is
 * reported changed.
 *
 * <p>A node reports {@link #tracking} and {@link #lost} one at a time, in the order its channel's
 * state changed, and never reports tracking for a channel whose loss it reported already (a late
 * acknowledgement of a connection that is gone is dropped, not reported): a report of tracking
 * after the loss would make the near caches keep values read with no channel at all. {@link
 * #changed} may come at any time from any thread (a key reported twice, or by a connection that is
 * gone, only drops an entry). They return quickly and never throw. Thread-safe.
 */
public interface Invalidations {

  /**
   * Tracking is on: the server acknowledged it, so every change of a tracked key that it applies
   * after any command this JVM sends from now on, on any connection (a write or delete by any
   * client, an expiry, an eviction), will be reported by {@link #changed}. Called at first and
   * again after each {@link #lost}.
   */
  void tracking();

  /**
   * The key changed on the server.
   *
   * @param routingKey the routing key ({@code cacheName + ":" + canonicalKey})
   */
  void changed(String routingKey);

  /**
   * Changes may have gone unreported (the channel was lost, or the server dropped every key at
   * once): nothing read from this node before may be served from a near cache any more. Until the
   * next {@link #tracking}, nothing read from it is kept.
   */
  void lost();
}
