package io.github.chash.cache;

import java.util.Collection;
import java.util.List;

/**
 * What a manager tells a metrics or tracing library about its work: how long its calls on remote
 * nodes take and what came of them, how long near-cache hits and loads take, and why nodes leave
 * and rejoin the live ring. The counts (hits, misses, the protocol's fences, leases, tombstones and
 * so on) are read from {@link CacheStats} instead, which every manager keeps whatever its recorder.
 *
 * <p>chash-runtime knows no metrics library: {@code chash-micrometer}'s {@code
 * MicrometerCacheRecorder} implements this for Micrometer (timers and Observations), and the Spring
 * Boot starter passes one to the manager it builds. Outside Spring, give one to {@link
 * ShardedCaches.Builder#recorder}. The default, {@link #NONE}, records nothing and reads no clock.
 *
 * <p>Calls come from the threads doing the cache's work, hit paths included: implementations must
 * be thread-safe, must not block, and should look up nothing by name per call (resolve what a cache
 * needs once, in {@link #cache}). An exception thrown here reaches the caller of the cache
 * operation, so implementations must not throw.
 */
public interface CacheRecorder {
  /** Records nothing, and tells caches to read no clock. */
  CacheRecorder NONE = new CacheRecorder() {};

  /** Near hits are timed one in this many ({@link Operations#nearHit}); a power of two. */
  int NEAR_HIT_SAMPLING = 256;

  /** The causes {@link #ejected} names, each ejection with one of them. */
  List<String> EJECTION_CAUSES = List.of("failures", "write_failures", "must_empty");

  /** The causes {@link #readmitted} names, each readmission with one of them. */
  List<String> READMISSION_CAUSES = List.of("flushed", "kept");

  /**
   * The manager serves these nodes: told once when it is built and again after each reconfigure,
   * before any of them is ejected. A recorder registers its per-node meters here, so that a
   * dashboard sees them (at zero) from the start rather than from the first event.
   *
   * @param nodeIds the ids of the nodes the manager's ring has now
   */
  default void nodesServed(Collection<String> nodeIds) {}

  /**
   * {@return the recorder of one cache's operations; asked once per cache, when the manager creates
   * it} The default records nothing.
   *
   * @param cacheName the cache's name
   */
  default Operations cache(String cacheName) {
    return Operations.NONE;
  }

  /**
   * A node was taken out of the live ring.
   *
   * @param nodeId the node
   * @param cause one of {@link #EJECTION_CAUSES}: {@code failures} (calls failed {@code
   *     failureLimit} times in a row), {@code write_failures} (as many writes failed in a row,
   *     reads in between succeeding) or {@code must_empty} (it holds copies no read may trust: too
   *     many to track, or a clear that failed; it is emptied before it rejoins)
   */
  default void ejected(String nodeId, String cause) {}

  /**
   * A node rejoined the live ring after its probe answered.
   *
   * @param nodeId the node
   * @param cause one of {@link #READMISSION_CAUSES}: {@code flushed} (it was emptied first) or
   *     {@code kept} (its entries were kept, those of unknown state deleted)
   */
  default void readmitted(String nodeId, String cause) {}

  /** The operations of one cache. Thread-safe; must not throw. */
  interface Operations {
    /** Records nothing. */
    Operations NONE = new Operations() {};

    /**
     * {@return whether this cache times its work} When false (the default), the cache reads no
     * clock and calls none of the methods below, so a recorder that keeps nothing costs nothing.
     */
    default boolean timed() {
      return false;
    }

    /**
     * The cache's near cache answered a read in this JVM, without a node call: told of the hits on
     * one key in {@link #NEAR_HIT_SAMPLING}, the keys drawn anew every 8 ms or so. A near hit takes
     * tens of nanoseconds, and timing every one would cost several times the hit; {@link
     * CacheStats#nearHitCount()} counts them all.
     *
     * @param nanos how long the lookup took
     */
    default void nearHit(long nanos) {}

    /**
     * A loader (the cached method) returned or threw.
     *
     * @param nanos how long it ran
     * @param success whether it returned
     */
    default void loaded(long nanos, boolean success) {}

    /**
     * A call on a remote node is about to be sent (a local shard's calls are counted, never timed:
     * they take nanoseconds, and a clock read would cost as much as the call).
     *
     * @param node the node called
     * @param operation what the call does (see {@link NodeOperation})
     * @return a token handed back to {@link #callEnded} (a started span, a start time), or null
     */
    default Object callStarted(NodeInfo node, NodeOperation operation) {
      return null;
    }

    /**
     * The call {@link #callStarted} announced has its answer.
     *
     * @param started what {@code callStarted} returned
     * @param node the node called
     * @param operation what the call did
     * @param result {@code hit} or {@code miss} for a read, {@code ok} for a write that the node
     *     answered, {@code refused} when the node would not store or return the value, {@code
     *     error} when it failed or timed out
     * @param nanos how long the call took, from {@code callStarted}
     * @param failure the node's failure when {@code result} is {@code error}, else null
     */
    default void callEnded(
        Object started,
        NodeInfo node,
        NodeOperation operation,
        String result,
        long nanos,
        Throwable failure) {}
  }
}
