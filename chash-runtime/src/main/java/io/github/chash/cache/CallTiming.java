package io.github.chash.cache;

/**
 * One timed call on a remote node, between {@link CacheRecorder.Operations#callStarted} and {@link
 * CacheRecorder.Operations#callEnded}. Made only when the cache is timed and the node is remote:
 * otherwise {@link #start} returns null, and {@link #end} of null does nothing, so an untimed call
 * reads no clock and allocates nothing.
 */
final class CallTiming {
  static final String HIT = "hit";
  static final String MISS = "miss";
  static final String OK = "ok";
  static final String REFUSED = "refused";
  static final String ERROR = "error";

  private final CacheRecorder.Operations timings;
  private final NodeInfo node;
  private final NodeOperation operation;
  private final Object token;
  private final long startNanos;

  private CallTiming(CacheRecorder.Operations timings, NodeInfo node, NodeOperation operation) {
    this.timings = timings;
    this.node = node;
    this.operation = operation;
    this.token = timings.callStarted(node, operation);
    this.startNanos = System.nanoTime();
  }

  /** {@return the timing of a call about to be sent, or null when it is not timed} */
  static CallTiming start(StatsCounter stats, NodeSlot slot, NodeOperation operation) {
    return stats.timed && slot.info.address() != null
        ? new CallTiming(stats.timings, slot.info, operation)
        : null;
  }

  /** The call ended with {@code result} ({@link #HIT}, ...); {@code failure} for {@link #ERROR}. */
  static void end(CallTiming timing, String result, Throwable failure) {
    if (timing != null) {
      long nanos = System.nanoTime() - timing.startNanos;
      timing.timings.callEnded(timing.token, timing.node, timing.operation, result, nanos, failure);
    }
  }

  /** A read's result: hit when it found something. */
  static String found(Object value) {
    if (value instanceof CacheNode.StoredEntry entry) {
      return entry.value() == null ? MISS : HIT;
    }
    return value == null ? MISS : HIT;
  }
}
