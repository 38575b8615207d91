package io.github.chash.cache;

import java.time.Duration;
import java.util.List;

/**
 * A node with an address, as a remote node has ({@link CacheNode#address()}), over a {@link
 * TrackingNode}: what the cache times and traces. Its class name makes it a {@code redis} node for
 * {@link NodeInfo}. Can be made to fail.
 */
final class FakeRedisNode implements CacheNode {
  final TrackingNode inner;
  private final String address;
  volatile boolean failing;

  FakeRedisNode(TrackingNode inner, String address) {
    this.inner = inner;
    this.address = address;
  }

  private void check() {
    if (failing) {
      throw new CacheNodeException(id(), "down (test)", null);
    }
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public String id() {
    return inner.id();
  }

  @Override
  public Object get(String key, ValueType type) {
    check();
    return inner.get(key, type);
  }

  @Override
  public StoredEntry getEntry(String key, ValueType type) {
    check();
    return inner.getEntry(key, type);
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    check();
    inner.put(key, value, ttl);
  }

  @Override
  public void evict(String key) {
    check();
    inner.evict(key);
  }

  @Override
  public void clear() {
    check();
    inner.clear();
  }

  @Override
  public void clear(String routingKeyPrefix) {
    check();
    inner.clear(routingKeyPrefix);
  }

  @Override
  public void ping() {
    check();
  }

  @Override
  public boolean track(List<String> prefixes, Invalidations listener) {
    return inner.track(prefixes, listener);
  }

  @Override
  public long estimatedSize() {
    return inner.estimatedSize();
  }

  @Override
  public void close() {
    inner.close();
  }
}
