package io.github.chash.cache;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node in memory with the conditional calls, as a Redis server has them (no expiry: the tests
 * take less than a TTL); its next fill can fail as a timeout does, landed or not.
 */
final class LeasingNode implements CacheNode {
  private final Map<String, Object> held = new ConcurrentHashMap<>();
  private volatile Boolean failNextFill; // null: none; else whether it lands first

  /** The time to live every value reports having left; null: no expiry. */
  volatile Duration ttlLeft;

  @Override
  public StoredEntry getEntry(String key, ValueType type) {
    Object v = get(key, type);
    return v == null ? null : new StoredEntry(v, ttlLeft);
  }

  void failNextFill(boolean lands) {
    failNextFill = lands;
  }

  @Override
  public String id() {
    return "a";
  }

  @Override
  public boolean conditional() {
    return true;
  }

  @Override
  public Object get(String key, ValueType type) {
    Object v = held.get(key);
    return v instanceof Marker ? null : v;
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    held.put(key, value);
  }

  @Override
  public void evict(String key) {
    held.remove(key);
  }

  @Override
  public synchronized CompletableFuture<Held> getHeld(String key, ValueType type) {
    Object v = held.get(key);
    return CompletableFuture.completedFuture(
        v == null
            ? Held.NOTHING
            : v instanceof Marker m ? new Held(null, m, null, v) : new Held(v, null, null, v));
  }

  @Override
  public synchronized boolean putIf(String key, Held expected, Object value, Duration ttl) {
    if (held.get(key) != expected.version()) {
      return false;
    }
    held.put(key, value);
    return true;
  }

  @Override
  public synchronized boolean putIfLeased(String key, Marker lease, Object value, Duration ttl) {
    Boolean fail = failNextFill;
    failNextFill = null;
    boolean landed = lease.equals(held.get(key)) && (fail == null || fail);
    if (landed) {
      held.put(key, value);
    }
    if (fail != null) {
      throw new CacheNodeException("a", "fill timed out (test)", null);
    }
    return landed;
  }

  @Override
  public synchronized boolean deleteIf(String key, Held expected) {
    return held.get(key) == expected.version() && held.remove(key) != null;
  }

  @Override
  public synchronized boolean deleteIfLeased(String key, Marker lease) {
    return held.remove(key, lease);
  }

  @Override
  public synchronized boolean lease(String key, Marker lease, Duration ttl) {
    Object v = held.get(key);
    if (v != null && !(v instanceof Marker m && !m.isLease())) {
      return false;
    }
    held.put(key, lease);
    return true;
  }

  @Override
  public void clear() {
    held.clear();
  }

  @Override
  public void ping() {}

  @Override
  public long estimatedSize() {
    return held.size();
  }

  @Override
  public void close() {}
}
