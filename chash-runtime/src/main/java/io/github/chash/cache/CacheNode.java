package io.github.chash.cache;

import io.github.chash.ring.RoutingKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One shard of a sharded cache: an in-process Caffeine cache or a remote server.
 *
 * <p>Keys are routing keys ({@code cacheName + ":" + canonicalKey}); a remote node adds its own
 * prefix. A verbatim cache's routing key ({@link VerbatimKeys}) is stored as the key it carries,
 * without the prefix, in the cache's codec. A node must keep distinct keys distinct (a key with an
 * unpaired surrogate is not the same as one with {@code ?}). Values are stored as given, including
 * the marker the cache stores for a cached {@code null} (a serializable enum constant of chash's
 * internals), which a remote node's codec must round-trip to the same constant. The cache layer,
 * not the node, applies the failure policy: a node reports a backend failure or timeout by throwing
 * {@link CacheNodeException} and never retries or buffers on its own; it reports a value it must
 * not store or return by throwing {@link ValueRefusedException}, which is no failure.
 *
 * <p>{@code CacheNodeContractTest} in this module's test jar states the contract as tests; a node
 * type passes it. Implementations are thread-safe.
 */
public interface CacheNode extends AutoCloseable {

  /** {@return the node's id, as in {@code chash.yaml} and the ring} */
  String id();

  /**
   * {@return the value stored under the key, or {@code null} when there is none (a miss)}
   *
   * @param key the routing key
   * @param type the type to decode a remote value to; local nodes ignore it
   * @throws CacheNodeException on a backend failure or timeout
   * @throws ValueRefusedException if what is stored cannot or must not be decoded (corrupt, of
   *     another version, of a class outside the allow-list, larger than the node's size limit)
   */
  Object get(String key, ValueType type);

  /**
   * Stores the value under the key, replacing any previous one.
   *
   * @param key the routing key
   * @param value the value, never {@code null} (the cached-null marker stands for null)
   * @param ttl time to live, positive; {@code null} for no expiry
   * @throws CacheNodeException on a backend failure or timeout
   * @throws ValueRefusedException if the node will not store the value (not encodable, or larger
   *     than its size limit); nothing was sent, and any previous value is still there
   */
  void put(String key, Object value, Duration ttl);

  /**
   * {@link #get(String, ValueType)} of a routing key the cache built once for the call; the default
   * reads its text. A node that can use the key as it is (a local node keeps its entries under it)
   * overrides this, and the other {@link RoutingKey} methods, so that a hit builds no string.
   *
   * @param key the routing key
   * @param type the type to decode a remote value to; local nodes ignore it
   * @return the value, or {@code null} on a miss
   * @throws CacheNodeException on a backend failure or timeout
   * @throws ValueRefusedException as {@link #get(String, ValueType)} does
   */
  default Object get(RoutingKey key, ValueType type) {
    return get(key.text(), type);
  }

  /**
   * {@link #put(String, Object, Duration)} of a routing key; the default writes its text.
   *
   * @param key the routing key
   * @param value the value, never {@code null}
   * @param ttl time to live, positive; {@code null} for no expiry
   * @throws CacheNodeException on a backend failure or timeout
   * @throws ValueRefusedException as {@link #put(String, Object, Duration)} does
   */
  default void put(RoutingKey key, Object value, Duration ttl) {
    put(key.text(), value, ttl);
  }

  /**
   * {@link #evict(String)} of a routing key; the default evicts its text.
   *
   * @param key the routing key
   * @throws CacheNodeException on a backend failure or timeout
   */
  default void evict(RoutingKey key) {
    evict(key.text());
  }

  /**
   * {@link #getEntry(String, ValueType)} of a routing key; the default reads its text.
   *
   * @param key the routing key
   * @param type how the values are decoded
   * @return the entry, or {@code null} on a miss
   * @throws CacheNodeException on a backend failure or timeout
   * @throws ValueRefusedException as {@link #get(String, ValueType)} does
   */
  default StoredEntry getEntry(RoutingKey key, ValueType type) {
    return getEntry(key.text(), type);
  }

  /**
   * A value read with the time it has left, for copying it to another node (live membership's
   * migration) without extending its life.
   *
   * @param value the stored value
   * @param ttl the time to live left; {@code null} for no expiry, or when the node cannot tell
   */
  record StoredEntry(Object value, Duration ttl) {}

  /**
   * {@return the value under the key with its remaining time to live, or {@code null} on a miss}
   * The default reads the value with {@link #get} and does not know its TTL ({@code null}: the copy
   * then gets the cache's own TTL).
   *
   * @param key the routing key
   * @param type how the values are decoded
   * @throws CacheNodeException on a backend failure or timeout
   * @throws ValueRefusedException as {@link #get} does
   */
  default StoredEntry getEntry(String key, ValueType type) {
    Object value = get(key, type);
    return value == null ? null : new StoredEntry(value, null);
  }

  /**
   * Deletes every entry of this library whose routing key {@code doomed} accepts, walking the
   * node's keys in batches (a remote node: {@code SCAN} under its prefix and {@code UNLINK}, never
   * {@code KEYS}), at most about {@code keysPerSecond} keys examined a second so that a sweep never
   * crowds out the traffic. Returns how many it deleted, or -1 when the node cannot list its keys
   * (the default: its leftovers then live until their TTL).
   *
   * @param doomed accepts the routing keys whose entries go
   * @param keysPerSecond the most keys examined per second, to spare the server
   * @return the number of entries deleted
   * @throws CacheNodeException on a backend failure or timeout
   */
  default long deleteKeys(java.util.function.Predicate<String> doomed, int keysPerSecond) {
    return -1;
  }

  /**
   * Starts reading many keys at once; the cache layer sends every node's request before it waits
   * for any. The map holds each key found: its value, or the {@link ValueRefusedException} that
   * refused it; absent keys are misses. The default reads the keys one by one with {@link #get}, at
   * once (right for an in-process node); a remote node sends one request ({@code MGET}).
   *
   * @param type how the values are decoded
   * @param keys routing keys, distinct
   * @return the reply; it fails with {@link CacheNodeException} on a backend failure or timeout (a
   *     node may also throw that at once)
   */
  default CompletableFuture<Map<String, Object>> getAll(List<String> keys, ValueType type) {
    Map<String, Object> found = new HashMap<>();
    for (String key : keys) {
      try {
        Object value = get(key, type);
        if (value != null) {
          found.put(key, value);
        }
      } catch (ValueRefusedException e) {
        found.put(key, e);
      }
    }
    return CompletableFuture.completedFuture(found);
  }

  /**
   * Starts storing many entries at once, each as {@link #put} would; the cache layer sends every
   * node's request before it waits for any. The default stores them one by one, at once; a remote
   * node pipelines them.
   *
   * @param values routing keys and values (never null values)
   * @param ttl time to live of every entry, positive; {@code null} for no expiry
   * @return the values the node refused, by key (nothing of them was stored); it fails with {@link
   *     CacheNodeException} on a backend failure or timeout (a node may also throw that at once),
   *     and then the state of every key is unknown
   */
  default CompletableFuture<Map<String, ValueRefusedException>> putAll(
      Map<String, Object> values, Duration ttl) {
    Map<String, ValueRefusedException> refused = new HashMap<>();
    values.forEach(
        (key, value) -> {
          try {
            put(key, value, ttl);
          } catch (ValueRefusedException e) {
            refused.put(key, e);
          }
        });
    return CompletableFuture.completedFuture(refused);
  }

  /**
   * What a node holds under a key, for the conditional calls between JVMs: a value, a {@link
   * Marker}, or nothing; with the node's own version of it to compare against.
   *
   * @param value the value, or null for a marker or nothing
   * @param marker the marker, or null
   * @param ttl the time to live left; null for no expiry or nothing held
   * @param version the node's token of exactly this entry (for a Redis node its bytes, for a
   *     memcached node its CAS unique), or null when nothing is held
   */
  record Held(Object value, Marker marker, Duration ttl, Object version) {
    /** Nothing held. */
    public static final Held NOTHING = new Held(null, null, null, null);

    /** {@return whether the node holds anything: a value or a marker} */
    public boolean holds() {
      return value != null || marker != null;
    }
  }

  /**
   * {@return whether the node implements the conditional calls ({@link #getHeld}, {@link #putIf},
   * {@link #deleteIf}, {@link #lease}) and round-trips {@link Marker}s given to {@link #put}} A
   * node that does not keeps the consistency rules of one JVM only. The default: false.
   */
  default boolean conditional() {
    return false;
  }

  /**
   * Starts reading what the node holds under the key, markers included ({@link #get} reads a marker
   * as a miss).
   *
   * @param key the routing key
   * @param type how a value is decoded
   * @return the reply; it fails with {@link CacheNodeException} on a backend failure or timeout, or
   *     {@link ValueRefusedException} as {@link #get} does
   */
  default CompletableFuture<Held> getHeld(String key, ValueType type) {
    throw new UnsupportedOperationException("node " + id() + " has no conditional calls");
  }

  /**
   * Stores a value or a marker under the key only if the node still holds exactly {@code expected}
   * (what {@link #getHeld} returned; {@link Held#NOTHING}: nothing), atomically on the server.
   *
   * @param key the routing key
   * @param expected what must be held
   * @param value a value or a {@link Marker}
   * @param ttl time to live, positive; {@code null} for no expiry
   * @return whether it was stored
   * @throws CacheNodeException on a backend failure or timeout
   * @throws ValueRefusedException as {@link #put} does
   */
  default boolean putIf(String key, Held expected, Object value, Duration ttl) {
    throw new UnsupportedOperationException("node " + id() + " has no conditional calls");
  }

  /**
   * Stores the value in place of the lease, only if the node still holds exactly that lease.
   *
   * @param key the routing key
   * @param lease the lease that must be held
   * @param value the value
   * @param ttl time to live, positive; {@code null} for no expiry
   * @return whether it was stored
   * @throws CacheNodeException on a backend failure or timeout
   * @throws ValueRefusedException as {@link #put} does
   */
  default boolean putIfLeased(String key, Marker lease, Object value, Duration ttl) {
    throw new UnsupportedOperationException("node " + id() + " has no conditional calls");
  }

  /**
   * Deletes the key only if the node still holds exactly {@code expected}.
   *
   * @param key the routing key
   * @param expected what must be held (what {@link #getHeld} returned)
   * @return whether it was deleted
   * @throws CacheNodeException on a backend failure or timeout
   */
  default boolean deleteIf(String key, Held expected) {
    throw new UnsupportedOperationException("node " + id() + " has no conditional calls");
  }

  /**
   * Deletes the key only if the node still holds exactly that lease: a load that failed, or whose
   * value is not cached, gives its lease back at once rather than leave the key unfillable for the
   * lease's time to live.
   *
   * @param key the routing key
   * @param lease the lease that must be held
   * @return whether it was deleted
   * @throws CacheNodeException on a backend failure or timeout
   */
  default boolean deleteIfLeased(String key, Marker lease) {
    throw new UnsupportedOperationException("node " + id() + " has no conditional calls");
  }

  /**
   * Stores the lease under the key unless a value or another lease is held there (nothing, a
   * tombstone or a vouch is replaced), atomically on the server.
   *
   * @param key the routing key
   * @param lease the new lease
   * @param ttl how long the lease lives, positive
   * @return whether the lease was stored
   * @throws CacheNodeException on a backend failure or timeout
   */
  default boolean lease(String key, Marker lease, Duration ttl) {
    throw new UnsupportedOperationException("node " + id() + " has no conditional calls");
  }

  /**
   * Starts telling {@code listener} about changes of the keys under the given routing-key prefixes
   * on the server, by any client ({@link Invalidations}), for the near caches of this JVM; a node
   * does so over a channel of its own (a Redis node: a connection with {@code CLIENT TRACKING}
   * {@code BCAST}), which it reopens and re-arms by itself, calling {@link Invalidations#lost} when
   * it is lost and {@link Invalidations#tracking} when it is on again. Called at most once, before
   * the node serves; closing the node ends it.
   *
   * @param routingKeyPrefixes the prefixes of the routing keys to follow (one per cache with a near
   *     cache, such as {@code users:}), none a prefix of another
   * @param listener told of tracking, changes and losses
   * @return whether the node has such a channel; false (the default) means a near cache learns
   *     nothing from this node, and its reads are not kept unless the user accepts staleness up to
   *     the near ttl ({@code near.invalidation: ttl})
   */
  default boolean track(java.util.List<String> routingKeyPrefixes, Invalidations listener) {
    return false;
  }

  /**
   * A manager of this JVM is writing the key on this node (called before the write is sent and
   * again once it returned or failed): a node whose server other managers of this JVM also track
   * ({@link #track}) reports the key {@linkplain Invalidations#changed changed} to them at once, so
   * that their near caches never serve an older value once the write returned, whatever state their
   * own channels are in. Between JVMs only the server's report can tell; within one, this does not
   * wait for it. Returns quickly and never throws. The default does nothing.
   *
   * @param key the routing key
   */
  default void writing(String key) {}

  /**
   * Removes the key's entry, if any.
   *
   * @param key the routing key
   * @throws CacheNodeException on a backend failure or timeout
   */
  void evict(String key);

  /**
   * Removes every entry this library wrote to the node (a remote node: every key under its prefix),
   * and nothing else. Used before a node rejoins the live ring ({@code onRejoin: flush}).
   *
   * @throws CacheNodeException on a backend failure or timeout
   */
  void clear();

  /**
   * Removes every entry whose routing key starts with {@code routingKeyPrefix} (one cache's
   * entries: {@code "users:"}), and no entry of another cache or application. The default removes
   * all of this library's entries ({@link #clear()}): more than asked, never less.
   *
   * @param routingKeyPrefix the prefix of the routing keys to remove, e.g. {@code users:}
   * @throws CacheNodeException on a backend failure or timeout
   */
  default void clear(String routingKeyPrefix) {
    clear();
  }

  /**
   * Checks that the node answers; the probe that readmits an ejected node.
   *
   * @throws CacheNodeException if it does not
   */
  void ping();

  /**
   * Waits until the node can serve, at most until its connect timeout has passed since it was
   * created; a node that cannot serve by then is not an error here (its calls fail, and the failure
   * policy takes over). Remote nodes connect in the background from their creation, so a manager
   * waits for all of its nodes at once. The default returns at once.
   */
  default void awaitReady() {}

  /**
   * {@return whether the node is a shard whose servers fail over among themselves, as a
   * Sentinel-managed Redis shard does: when its primary dies, its calls fail until a replica is
   * promoted and the node has reconnected to it, and then it serves its keys again} The failure
   * policy ejects such a node only once its failures have also lasted {@code
   * failover.promotionWait}, so a promotion moves no key. The default: false.
   */
  default boolean promotesReplica() {
    return false;
  }

  /**
   * {@return reads this node sent to a replica of its shard rather than its primary; 0 for a node
   * that reads from its primary only (the default)}
   */
  default long replicaReadCount() {
    return 0;
  }

  /**
   * {@return the server this node talks to, for metrics and spans ({@code server.address}): {@code
   * host:port}, or several of them separated by commas (a Sentinel-managed shard's sentinels),
   * never a credential; null for a node in this JVM (the default)}
   */
  default String address() {
    return null;
  }

  /**
   * {@return the approximate number of this library's entries on the node, or -1 when the node
   * cannot tell cheaply} Never throws.
   */
  long estimatedSize();

  /** Releases the node's resources (connections, memory); later calls may fail. Never throws. */
  @Override
  void close();
}
