package io.github.chash.cache;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local node that stands for a remote node with an invalidation channel ({@link CacheNode#track})
 * that the test drives by hand: the test reports changes and losses through {@link #channel()}, as
 * a server would. Reads and writes reach a real {@link LocalCacheNode}, which stands for the
 * server's data (another JVM writes there with {@link #server()}). Counts the reads that reached
 * it, and runs an action once right after a read got its answer or right before a write is sent:
 * another caller's operation placed at an exact point, without threads.
 */
final class TrackingNode implements CacheNode {
  private final CacheNode server;
  private final boolean hasChannel;
  final AtomicInteger reads = new AtomicInteger();
  private volatile Invalidations channel;
  private volatile List<String> tracked;
  private volatile Runnable afterRead;
  private volatile Runnable beforePut;

  /**
   * @param id the node's id
   * @param hasChannel whether {@link #track} says the node reports changes (false: as memcached)
   * @param ticker the clock of the server's expiry
   */
  TrackingNode(String id, boolean hasChannel, com.github.benmanes.caffeine.cache.Ticker ticker) {
    this.server = new LocalCacheNode(id, 10_000, ticker);
    this.hasChannel = hasChannel;
  }

  /** The server's data, as another JVM writes it. */
  CacheNode server() {
    return server;
  }

  /** What the manager gave {@link #track}; null before (or without a channel). */
  Invalidations channel() {
    return channel;
  }

  /** The prefixes the manager asked to track. */
  List<String> trackedPrefixes() {
    return tracked;
  }

  /** Runs {@code action} once, after the next read got its answer and before it returns it. */
  void onceAfterRead(Runnable action) {
    afterRead = action;
  }

  /** Runs {@code action} once, before the next put is sent. */
  void onceBeforePut(Runnable action) {
    beforePut = action;
  }

  @Override
  public boolean track(List<String> routingKeyPrefixes, Invalidations listener) {
    if (!hasChannel) {
      return false;
    }
    tracked = List.copyOf(routingKeyPrefixes);
    channel = listener;
    listener.tracking();
    return true;
  }

  @Override
  public String id() {
    return server.id();
  }

  @Override
  public Object get(String key, ValueType type) {
    reads.incrementAndGet();
    Object value = server.get(key, type);
    after();
    return value;
  }

  @Override
  public StoredEntry getEntry(String key, ValueType type) {
    reads.incrementAndGet();
    StoredEntry entry = server.getEntry(key, type);
    after();
    return entry;
  }

  private void after() {
    Runnable action = afterRead;
    if (action != null) {
      afterRead = null;
      action.run();
    }
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    Runnable action = beforePut;
    if (action != null) {
      beforePut = null;
      action.run();
    }
    server.put(key, value, ttl);
  }

  @Override
  public void evict(String key) {
    server.evict(key);
  }

  @Override
  public void clear() {
    server.clear();
  }

  @Override
  public void clear(String routingKeyPrefix) {
    server.clear(routingKeyPrefix);
  }

  @Override
  public void ping() {
    server.ping();
  }

  @Override
  public long estimatedSize() {
    return server.estimatedSize();
  }

  @Override
  public void close() {
    server.close();
  }
}
