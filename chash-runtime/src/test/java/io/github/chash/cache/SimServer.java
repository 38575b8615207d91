package io.github.chash.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One simulated cache server, kept across removes and re-adds of its node id (a re-added node finds
 * its old data, as a real server would). Its state changes only on the scheduler's thread (requests
 * are applied as world events) or, for faults, by the scheduler too. Keys are routing keys;
 * iteration is in key order, so a scan is deterministic.
 */
final class SimServer {
  /** A stored value and when it expires (sim nanos; {@code Long.MAX_VALUE}: never). */
  record Stored(Object value, long expiresAt) {}

  final String id;
  final SimScheduler sched;
  final SimTrace trace;

  /** Whether the server can list its keys (Redis-like), or {@code deleteKeys} says -1. */
  final boolean scannable;

  /**
   * Whether the server applies a client's requests in the order sent (one connection, as Redis
   * through Lettuce), or in any order, as a local Caffeine shard called from several threads does.
   * An unordered server never fails (the scheduler faults none): a local shard cannot.
   */
  final boolean ordered;

  /**
   * Whether its client says it promotes a replica (a Sentinel shard): the failure policy then
   * ejects it only once its failures have lasted {@code promotionWait}. A fault that takes it down
   * and back with its data stands for a promotion, since the promoted replica holds every write
   * that counted as landed.
   */
  final boolean promotes;

  private TreeMap<String, Stored> data = new TreeMap<>();

  /** The near caches' invalidation channels open on the server ({@code CLIENT TRACKING}). */
  private final List<SimNode.Channel> channels = new ArrayList<>();

  private final List<TreeMap<String, Stored>> snapshots = new ArrayList<>();

  // faults: each holds until the sim time given (0: none)
  volatile long downUntil;
  volatile long frozenUntil;
  volatile long slowUntil;
  volatile long refuseWritesUntil;
  volatile long dropRepliesUntil;
  volatile boolean dropNext;

  SimServer(String id, SimScheduler sched, SimTrace trace, boolean scannable, boolean ordered) {
    this(id, sched, trace, scannable, ordered, false);
  }

  SimServer(
      String id,
      SimScheduler sched,
      SimTrace trace,
      boolean scannable,
      boolean ordered,
      boolean promotes) {
    this.id = id;
    this.sched = sched;
    this.trace = trace;
    this.scannable = scannable || !ordered;
    this.ordered = ordered;
    this.promotes = promotes && ordered;
  }

  private Stored live(String key) {
    Stored s = data.get(key);
    if (s != null && s.expiresAt - sched.now() <= 0) {
      data.remove(key);
      changed(key); // an expiry is a change, as Redis reports it
      return null;
    }
    return s;
  }

  /** A channel starts hearing of every change of a key. */
  void track(SimNode.Channel channel) {
    channels.add(channel);
  }

  void untrack(SimNode.Channel channel) {
    channels.remove(channel);
  }

  /** Every open channel hears of the change, in the order the changes happened. */
  private void changed(String key) {
    for (SimNode.Channel c : List.copyOf(channels)) {
      c.changed(key);
    }
  }

  /** The server's connections break (a crash, a restart, a killed client): every channel too. */
  void breakChannels() {
    List<SimNode.Channel> open = List.copyOf(channels);
    channels.clear();
    open.forEach(SimNode.Channel::broken);
  }

  /** Whether some channel is open, for the trace. */
  boolean tracked() {
    return !channels.isEmpty();
  }

  /** A value; a marker reads as a miss. */
  Object get(String key) {
    Stored s = live(key);
    return s == null || s.value instanceof Marker ? null : s.value;
  }

  /** What is held, markers too; the stored record itself is the version. */
  CacheNode.Held held(String key) {
    Stored s = live(key);
    if (s == null) {
      return CacheNode.Held.NOTHING;
    }
    Duration left =
        s.expiresAt == Long.MAX_VALUE ? null : Duration.ofNanos(s.expiresAt - sched.now());
    return s.value instanceof Marker m
        ? new CacheNode.Held(null, m, left, s)
        : new CacheNode.Held(s.value, null, left, s);
  }

  boolean putIf(String key, CacheNode.Held expected, Object value, Duration ttl) {
    if (live(key) != expected.version()) {
      return false;
    }
    put(key, value, ttl);
    return true;
  }

  boolean putIfLeased(String key, Marker lease, Object value, Duration ttl) {
    Stored s = live(key);
    if (s == null || !lease.equals(s.value)) {
      return false;
    }
    put(key, value, ttl);
    return true;
  }

  boolean deleteIf(String key, CacheNode.Held expected) {
    Stored s = live(key);
    if (s == null || s != expected.version()) {
      return false;
    }
    data.remove(key);
    changed(key);
    return true;
  }

  boolean deleteIfLeased(String key, Marker lease) {
    Stored s = live(key);
    if (s == null || !lease.equals(s.value)) {
      return false;
    }
    data.remove(key);
    changed(key);
    return true;
  }

  boolean lease(String key, Marker lease, Duration ttl) {
    Stored s = live(key);
    if (s != null && !(s.value instanceof Marker m && !m.isLease())) {
      return false;
    }
    put(key, lease, ttl);
    return true;
  }

  CacheNode.StoredEntry getEntry(String key) {
    Stored s = live(key);
    if (s == null || s.value instanceof Marker) {
      return null;
    }
    Duration left =
        s.expiresAt == Long.MAX_VALUE ? null : Duration.ofNanos(s.expiresAt - sched.now());
    return new CacheNode.StoredEntry(s.value, left);
  }

  void put(String key, Object value, Duration ttl) {
    long expires = ttl == null ? Long.MAX_VALUE : sched.now() + ttl.toNanos();
    data.put(key, new Stored(value, expires));
    changed(key);
  }

  boolean evict(String key) {
    boolean removed = data.remove(key) != null;
    changed(key);
    return removed;
  }

  void clear(String prefix) {
    List<String> gone = new ArrayList<>();
    for (String k : data.keySet()) {
      if (prefix == null || k.startsWith(prefix)) {
        gone.add(k);
      }
    }
    gone.forEach(data::remove);
    gone.forEach(this::changed);
  }

  /** Up to {@code count} keys after {@code cursor} (null: from the start), in key order. */
  List<String> scan(String cursor, int count) {
    Map<String, Stored> tail = cursor == null ? data : data.tailMap(cursor, false);
    List<String> out = new ArrayList<>();
    for (String k : tail.keySet()) {
      if (out.size() == count) {
        break;
      }
      out.add(k);
    }
    return out;
  }

  int size() {
    return data.size();
  }

  /** Takes a snapshot (as an RDB save would); keeps the last few. */
  void snapshot() {
    snapshots.add(new TreeMap<>(data));
    if (snapshots.size() > 4) {
      snapshots.remove(0);
    }
  }

  /** Restarts with an old snapshot (or empty, when none): returns what it restored. */
  /**
   * Restarts so far: a restart breaks every connection, so a reply to a request sent before it
   * never arrives (the request may have been applied).
   */
  volatile int restarts;

  String restore(int pick) {
    restarts++;
    breakChannels();
    if (snapshots.isEmpty()) {
      data = new TreeMap<>();
      return "nothing (no snapshot)";
    }
    TreeMap<String, Stored> s = snapshots.get(Math.floorMod(pick, snapshots.size()));
    data = new TreeMap<>(s);
    return data.size() + " keys";
  }

  void loseEverything() {
    restarts++;
    breakChannels();
    data = new TreeMap<>();
    snapshots.clear();
  }

  String faults(long now) {
    StringBuilder b = new StringBuilder();
    if (downUntil > now) b.append(" down");
    if (frozenUntil > now) b.append(" frozen");
    if (slowUntil > now) b.append(" slow");
    if (refuseWritesUntil > now) b.append(" read-only");
    if (dropRepliesUntil > now) b.append(" dropping");
    return b.toString();
  }
}
