package io.github.chash.cache;

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

  FaultyNode(CacheNode delegate) {
    this.delegate = delegate;
  }

  void failing(boolean failing) {
    this.failing = failing;
  }

  private void check(String op) {
    calls.incrementAndGet();
    if (failing) {
      throw new CacheNodeException(delegate.id(), op + " timed out", null);
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
