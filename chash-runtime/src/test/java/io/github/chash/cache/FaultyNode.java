package io.github.chash.cache;

import io.github.chash.internal.node.ClientStalls;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real {@link LocalCacheNode} that can be switched to fail every call, as a dead or timing-out
 * server does. Counts the calls that reached it.
 */
final class FaultyNode implements CacheNode {
  final CacheNode delegate;
  final AtomicInteger calls = new AtomicInteger();
  final AtomicInteger clears = new AtomicInteger();
  private volatile boolean failing;
  private volatile boolean stalled;
  private volatile boolean refusing;
  private volatile boolean refusingWrites;
  private volatile boolean promotesReplica;
  private volatile String hookedOp;
  private volatile Runnable hook;

  FaultyNode(CacheNode delegate) {
    this.delegate = delegate;
  }

  void failing(boolean failing) {
    this.failing = failing;
  }

  /**
   * Fails every call as a real node does when this JVM, not the server, could not run for the
   * call's wait ({@link ClientStalls}).
   */
  void stalled(boolean stalled) {
    this.stalled = stalled;
  }

  /** Fails every call as a node whose server is gone does: the connection is refused. */
  void refusing(boolean refusing) {
    this.refusing = refusing;
  }

  /**
   * Fails every write (put, evict, clear) with an error while reads succeed, as a Sentinel shard's
   * new primary does until a replica is attached to acknowledge its writes.
   */
  void refusingWrites(boolean refusingWrites) {
    this.refusingWrites = refusingWrites;
  }

  /** Makes the node say it is a shard that promotes a replica ({@link #promotesReplica}). */
  void promotesReplica(boolean promotesReplica) {
    this.promotesReplica = promotesReplica;
  }

  @Override
  public boolean promotesReplica() {
    return promotesReplica;
  }

  /**
   * Runs {@code action} once, before the next call of {@code op} reaches the node: another caller's
   * operation placed at an exact point of the caller's sequence, without threads.
   */
  void onceBefore(String op, Runnable action) {
    hook = action;
    hookedOp = op;
  }

  private void check(String op) {
    calls.incrementAndGet();
    Runnable action = hook;
    if (action != null && op.equals(hookedOp)) {
      hook = null;
      action.run();
    }
    if (stalled) {
      throw new CacheNodeException(
          delegate.id(), op + " not read in time", ClientStalls.stalledFailure(1_000_000_000L));
    }
    if (refusing) {
      throw new CacheNodeException(
          delegate.id(), op + " failed: connection refused", new java.net.ConnectException());
    }
    if (refusingWrites && (op.equals("put") || op.equals("evict") || op.startsWith("clear"))) {
      throw new CacheNodeException(
          delegate.id(), op + " failed: NOREPLICAS no replica acknowledged the write", null);
    }
    if (failing) {
      throw new CacheNodeException(
          delegate.id(),
          op + " timed out",
          new java.util.concurrent.TimeoutException(op + " timed out"));
    }
  }

  @Override
  public String id() {
    return delegate.id();
  }

  @Override
  public Object get(String key, ValueType type) {
    check("get");
    return delegate.get(key, type);
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    check("put");
    delegate.put(key, value, ttl);
  }

  @Override
  public void evict(String key) {
    check("evict");
    delegate.evict(key);
  }

  @Override
  public void clear() {
    check("clear");
    clears.incrementAndGet();
    delegate.clear();
  }

  @Override
  public void clear(String routingKeyPrefix) {
    check("clear " + routingKeyPrefix);
    delegate.clear(routingKeyPrefix);
  }

  @Override
  public void ping() {
    check("ping");
  }

  @Override
  public long estimatedSize() {
    return delegate.estimatedSize();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
