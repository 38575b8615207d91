package io.github.chash.it.nodetype;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.ValueType;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node that keeps its entries in a map of this JVM, with deadlines on the JVM's clock: the least
 * a node type implements (no conditional calls, so the cache treats it as a plain store).
 */
final class MemoryNode implements CacheNode {
  private record Entry(Object value, long deadlineNanos) {
    boolean expired(long now) {
      return deadlineNanos != Long.MAX_VALUE && now - deadlineNanos >= 0;
    }
  }

  private final String id;
  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

  MemoryNode(String id) {
    this.id = id;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Object get(String key, ValueType type) {
    Entry entry = entries.get(key);
    if (entry == null) {
      return null;
    }
    if (entry.expired(System.nanoTime())) {
      entries.remove(key, entry);
      return null;
    }
    return entry.value();
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    long deadline = ttl == null ? Long.MAX_VALUE : System.nanoTime() + ttl.toNanos();
    entries.put(key, new Entry(value, deadline));
  }

  @Override
  public void evict(String key) {
    entries.remove(key);
  }

  @Override
  public void clear() {
    entries.clear();
  }

  @Override
  public void clear(String routingKeyPrefix) {
    entries.keySet().removeIf(key -> key.startsWith(routingKeyPrefix));
  }

  @Override
  public void ping() {}

  @Override
  public long estimatedSize() {
    return entries.size();
  }

  @Override
  public void close() {
    entries.clear();
  }

  /** Whether the entry under {@code key} has no deadline, for the contract test. */
  boolean neverExpires(String key) {
    Entry entry = entries.get(key);
    return entry != null && entry.deadlineNanos() == Long.MAX_VALUE;
  }

  @Override
  public String toString() {
    return "MemoryNode[" + id + "]";
  }
}
