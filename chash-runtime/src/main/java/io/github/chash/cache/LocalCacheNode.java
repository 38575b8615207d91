package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.github.chash.ring.RoutingKey;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A node backed by one Caffeine cache: bounded by entry count, each entry expiring after the TTL it
 * was written with, values kept by reference.
 *
 * <p>The Caffeine cache itself has no expiry: its variable expiry (a timer wheel updated on every
 * read) costs reads far more than with {@code expireAfterWrite}, and one Caffeine per TTL could not
 * share the node's size bound. Instead an entry written with a TTL is stored as an {@link Expiring}
 * holding its deadline, checked on each read (one clock read); an entry without TTL is stored as
 * is, so its read reads no clock at all. An expired entry is never returned: the read that finds it
 * removes it. Expired entries nobody reads again stay until the size bound evicts them (they are
 * never read, so Caffeine's frequency sketch makes them the first to go) or {@link #cleanUp}.
 *
 * <p>Entries are kept under {@link RoutingKey}s, the key the cache built for the call: a hit looks
 * the map up with it as it is (its hash computed once, its equality by text) and builds no string.
 * The {@code String} methods make the routing key of their text.
 *
 * <p>With the system clock, a read checks deadlines against the {@link CoarseClock} (a volatile
 * read instead of a 20 to 30 ns {@code System.nanoTime()}), while a write takes its deadline from
 * {@code nanoTime()}: an entry is never served after its TTL is over by more than about {@value
 * CoarseClock#TICK_MILLIS} ms, and never dropped before it.
 */
final class LocalCacheNode implements CacheNode {
  // Caffeine's own cap (~150 years); keeps deadline arithmetic from overflowing: a TTL this long
  // is stored as no expiry.
  private static final long MAX_TTL_NANOS = Long.MAX_VALUE >>> 1;

  private final String id;
  private final Cache<RoutingKey, Object> cache;
  private final Ticker ticker;

  /** The clock reads check deadlines against: the coarse one, or {@link #ticker} in tests. */
  private final Ticker readTicker;

  private final CoarseClock coarseClock;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * Creates a node timing expiry with {@code ticker}; with the system ticker, reads use the {@link
   * CoarseClock} (released by {@link #close}).
   */
  LocalCacheNode(String id, long maximumSize, Ticker ticker) {
    if (maximumSize <= 0) {
      throw new IllegalArgumentException(
          "maximumSize of node \"" + id + "\" must be positive, was " + maximumSize);
    }
    this.id = id;
    this.ticker = ticker;
    this.coarseClock = ticker == Ticker.systemTicker() ? CoarseClock.shared().acquire() : null;
    this.readTicker = coarseClock != null ? coarseClock : ticker;
    this.cache = Caffeine.newBuilder().maximumSize(maximumSize).build();
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Object get(String key, ValueType type) {
    return get(RoutingKey.of(key), type);
  }

  @Override
  public Object get(RoutingKey key, ValueType type) {
    Object stored = cache.getIfPresent(key);
    if (stored instanceof Expiring e) {
      if (readTicker.read() - e.deadlineNanos >= 0) {
        cache.asMap().remove(key, e);
        return null;
      }
      return e.value;
    }
    return stored;
  }

  @Override
  public StoredEntry getEntry(String key, ValueType type) {
    return getEntry(RoutingKey.of(key), type);
  }

  @Override
  public StoredEntry getEntry(RoutingKey key, ValueType type) {
    Object stored = cache.getIfPresent(key);
    if (stored instanceof Expiring e) {
      long left = e.deadlineNanos - ticker.read();
      if (left <= 0) {
        cache.asMap().remove(key, e);
        return null;
      }
      return new StoredEntry(e.value, Duration.ofNanos(left));
    }
    return stored == null ? null : new StoredEntry(stored, null);
  }

  /** An in-process map: its keys are walked directly, no rate to keep. */
  @Override
  public long deleteKeys(java.util.function.Predicate<String> doomed, int keysPerSecond) {
    long[] deleted = {0};
    cache
        .asMap()
        .keySet()
        .removeIf(
            key -> {
              boolean gone = doomed.test(key.text());
              deleted[0] += gone ? 1 : 0;
              return gone;
            });
    return deleted[0];
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    put(RoutingKey.of(key), value, ttl);
  }

  @Override
  public void put(RoutingKey key, Object value, Duration ttl) {
    long nanos = ttl == null ? MAX_TTL_NANOS : ttlNanos(ttl);
    cache.put(key, nanos >= MAX_TTL_NANOS ? value : new Expiring(value, ticker.read() + nanos));
  }

  @Override
  public void evict(String key) {
    evict(RoutingKey.of(key));
  }

  @Override
  public void evict(RoutingKey key) {
    cache.invalidate(key);
  }

  @Override
  public void clear() {
    cache.invalidateAll();
  }

  @Override
  public void clear(String routingKeyPrefix) {
    cache.asMap().keySet().removeIf(key -> key.startsWith(routingKeyPrefix));
  }

  @Override
  public void ping() {
    // In-process: always answers.
  }

  @Override
  public long estimatedSize() {
    return cache.estimatedSize();
  }

  @Override
  public void close() {
    cache.invalidateAll();
    if (coarseClock != null && closed.compareAndSet(false, true)) {
      coarseClock.release();
    }
  }

  /** Drops expired entries and runs Caffeine's pending maintenance (eviction to the size bound). */
  void cleanUp() {
    long now = ticker.read();
    cache.asMap().values().removeIf(v -> v instanceof Expiring e && now - e.deadlineNanos >= 0);
    cache.cleanUp();
  }

  @Override
  public String toString() {
    return "LocalCacheNode{id=" + id + "}";
  }

  private static long ttlNanos(Duration ttl) {
    try {
      return ttl.toNanos();
    } catch (ArithmeticException tooLong) {
      return MAX_TTL_NANOS;
    }
  }

  /** A value written with a TTL, and when it expires ({@link Ticker} nanos). */
  private static final class Expiring {
    final Object value;
    final long deadlineNanos;

    Expiring(Object value, long deadlineNanos) {
      this.value = value;
      this.deadlineNanos = deadlineNanos;
    }
  }
}
