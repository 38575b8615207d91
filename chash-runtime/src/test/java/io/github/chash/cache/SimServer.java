package io.github.chash.cache;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One simulated cache server, kept across removes and re-adds of its node id (a re-added node finds
 * its old data, as a real server would). Its state changes only on the scheduler's thread (requests
 * are applied as world events) or, for faults, by the scheduler too. Keys are routing keys;
 * iteration is in key order, so a scan is deterministic.
 */
final class SimServer {
  /**
   * A stored value, when it expires (sim nanos; {@code Long.MAX_VALUE}: never) and its {@code cas}
   * unique: a number the server gives each item it stores, as memcached does.
   */
  /**
   * A stored entry: its value, when it expires (sim nanos; {@code Long.MAX_VALUE}: never), its
   * {@code cas} unique, and the server incarnation it was written in.
   */
  record Stored(Object value, long expiresAt, long cas, int incarnation) {}

  /**
   * How a conditional call ({@code putIf}, {@code deleteIf}) compares what it expects with what the
   * server holds. Real servers compare what is stored, not who stored it: two writes of equal bytes
   * are the same to them.
   */
  enum Compare {
    /** The stored record itself: stronger than any real server (the simulation's old default). */
    IDENTITY,
    /**
     * The stored bytes, as chash's Redis scripts compare them: the value's, and the random write
     * version chash's Redis node stores with each value of a prefixed cache, so that two writes of
     * equal values are unequal bytes (modelled by the store's unique); equal values pass only with
     * {@link #NO_WRITE_VERSION} planted, as a verbatim cache's raw bytes do.
     */
    BYTES,
    /** The item's {@code cas} unique, as memcached's {@code cas}: a new store is a new unique. */
    CAS
  }

  /** This server's comparison; {@link Compare#IDENTITY} unless the run makes it weaker. */
  Compare compare = Compare.IDENTITY;

  /**
   * The most entries the server holds (values, leases and tombstones alike); beyond it, it evicts
   * the least recently used, as Redis under {@code maxmemory} with {@code allkeys-lru} or memcached
   * under {@code -m} do. {@code Integer.MAX_VALUE}: unbounded.
   */
  int capacity = Integer.MAX_VALUE;

  /** Keys from least to most recently used; kept only while {@link #capacity} is bounded. */
  private final LinkedHashMap<String, Boolean> recency = new LinkedHashMap<>(16, 0.75f, true);

  private long casCounter;

  /** The server's incarnation: a new one at every restart, as Redis's {@code run_id}. */
  private int incarnation = 1;

  /** Entries the server evicted on its own (memory bound or a random eviction), for the trace. */
  long evictions;

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
      remove(key);
      changed(key); // an expiry is a change, as Redis reports it
      return null;
    }
    if (s != null && capacity != Integer.MAX_VALUE) {
      recency.get(key); // a use: the entry becomes the most recently used
    }
    if (s != null && recognisesRestarts() && s.incarnation != incarnation) {
      // what the server restored from before its restart: chash's Redis node tags every entry
      // with the incarnation it vetted, and reads another's as nothing (ServerIncarnation)
      return null;
    }
    return s;
  }

  private Stored remove(String key) {
    recency.remove(key);
    return data.remove(key);
  }

  /** Whether {@code live} (null: nothing) is what {@code version} (a Held's) stands for. */
  private boolean matches(Stored live, Object version) {
    if (live == null || version == null) {
      return live == version;
    }
    Stored seen = (Stored) version;
    return switch (compare) {
      case IDENTITY -> live == seen;
      case BYTES ->
          Objects.equals(live.value, seen.value)
              && (live.cas == seen.cas || Planted.on(NO_WRITE_VERSION));
      case CAS -> live.cas == seen.cas;
    };
  }

  /**
   * Whether chash's node tells this server's incarnations apart, as its Redis node does ({@code
   * run_id}); a memcached-like server (compared by {@code cas}) keeps nothing across a restart.
   */
  boolean recognisesRestarts() {
    return persists() && !Planted.on(RESTART_NOT_RECOGNISED);
  }

  /**
   * Whether a restart may restore older data: a Redis-like server's, not a memcached-like one's.
   */
  boolean persists() {
    return compare != Compare.CAS;
  }

  /**
   * The bug the mutation gate plants in this model of the Redis node's check ({@code
   * ServerIncarnation}, which the simulations do not run): what a restart restored reads as it was
   * written. On real servers, {@code RedisRestartIT} plants the same in the node itself.
   */
  static final String RESTART_NOT_RECOGNISED = "restart not recognised";

  /**
   * The bug the mutation gate plants in this model of the Redis node's write version ({@code
   * ServerIncarnation}'s header): a Redis-like server compares bare values, and a second put of
   * equal bytes passes for the first (the ABA of issue 40).
   */
  static final String NO_WRITE_VERSION = "no write version";

  /** The server's incarnation, a new one at every restart. */
  int incarnation() {
    return incarnation;
  }

  /** The server's current incarnation id: a new one after every restart (Redis's run_id). */
  String runId() {
    return id + "-run" + incarnation;
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
    if (!matches(live(key), expected.version())) {
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
    if (s == null || !matches(s, expected.version())) {
      return false;
    }
    remove(key);
    changed(key);
    return true;
  }

  boolean deleteIfLeased(String key, Marker lease) {
    Stored s = live(key);
    if (s == null || !lease.equals(s.value)) {
      return false;
    }
    remove(key);
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
    data.put(key, new Stored(value, expires, ++casCounter, incarnation));
    changed(key);
    if (capacity != Integer.MAX_VALUE) {
      recency.put(key, Boolean.TRUE);
      // over its memory bound the server evicts the least recently used others, whatever they are
      var lru = recency.keySet().iterator();
      while (data.size() > capacity && lru.hasNext()) {
        String old = lru.next();
        if (!old.equals(key)) {
          lru.remove();
          data.remove(old);
          evicted(old, "lru");
        }
      }
    }
  }

  private void evicted(String key, String why) {
    evictions++;
    trace.add("server", key, "evicted (" + why + ") @" + id);
    changed(key); // Redis reports an eviction to tracking clients as any change
  }

  /** Evicts one entry drawn at random (a server under memory pressure); null when it holds none. */
  String evictAny(SplittableRandom r) {
    if (data.isEmpty()) {
      return null;
    }
    int i = r.nextInt(data.size());
    String key = null;
    for (String k : data.keySet()) {
      if (i-- == 0) {
        key = k;
        break;
      }
    }
    remove(key);
    evicted(key, "random");
    return key;
  }

  boolean evict(String key) {
    boolean removed = remove(key) != null;
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
    gone.forEach(this::remove);
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

  /**
   * Restarts so far: a restart breaks every connection, so a reply to a request sent before it
   * never arrives (the request may have been applied).
   */
  volatile int restarts;

  /** Restarts with an old snapshot (or empty, when none), breaking the calls under way. */
  String restore(int pick) {
    restarts++;
    return restart(pick);
  }

  /**
   * Restarts between two calls, from an old snapshot ({@code pick} chooses which) or empty when it
   * has none: the connections break (a near cache's channel hears of it), a new incarnation begins,
   * and no call fails: a request under way is applied on the restarted server and answered, as a
   * client that reconnects and sends it again would have it. {@return what it restored}
   */
  String restart(int pick) {
    incarnation++;
    breakChannels();
    recency.clear();
    if (snapshots.isEmpty()) {
      data = new TreeMap<>();
      return "nothing (no snapshot)";
    }
    data = new TreeMap<>(snapshots.get(Math.floorMod(pick, snapshots.size())));
    if (capacity != Integer.MAX_VALUE) {
      data.keySet().forEach(k -> recency.put(k, Boolean.TRUE));
    }
    return data.size() + " keys";
  }

  /** Restarts empty between two calls (no persistence), no call failing; see {@link #restart}. */
  void restartEmpty() {
    incarnation++;
    breakChannels();
    recency.clear();
    data = new TreeMap<>();
  }

  void loseEverything() {
    restarts++;
    incarnation++;
    breakChannels();
    recency.clear();
    data = new TreeMap<>();
    snapshots.clear();
  }

  // Called directly: real threads of a test call the server (SimFleet), no scheduler runs. Each
  // request is applied under the wire's lock, in the order requests come, or held while the server
  // is frozen; the server's clock (its scheduler's, never moved) stands still.

  /** Whether real threads call the server ({@link #request}), not the scheduler's actors. */
  boolean calledDirectly;

  /**
   * {@return a server that real threads call ({@link #request}), a scheduler of its own never run:
   * its clock stands still, so nothing on it expires}
   *
   * @param compare how its conditional calls compare
   * @param scannable whether it lists its keys (Redis), or not (memcached)
   */
  static SimServer calledDirectly(String id, Compare compare, boolean scannable) {
    SimScheduler sched = new SimScheduler(0);
    SimServer server = new SimServer(id, sched, new SimTrace(sched, false), scannable, true);
    server.compare = compare;
    server.calledDirectly = true;
    return server;
  }

  private final Object wire = new Object();
  private final ArrayDeque<Request<?>> heldRequests = new ArrayDeque<>();
  private boolean frozenNow;
  private boolean killedNow;

  /** Client connections open to the server: its nodes made and not yet closed. */
  final AtomicInteger connections = new AtomicInteger();

  /** A request that waits for a frozen server, and its reply. */
  private record Request<T>(Function<SimServer, T> body, CompletableFuture<T> reply) {
    void apply(SimServer server) {
      try {
        reply.complete(body.apply(server));
      } catch (RuntimeException e) {
        reply.completeExceptionally(e);
      }
    }
  }

  /**
   * Sends a request from a real thread: applied now, or when the server thaws (in the order sent),
   * or never (the server is killed: the reply fails, as a refused or reset connection).
   */
  <T> CompletableFuture<T> request(Function<SimServer, T> body) {
    Request<T> request = new Request<>(body, new CompletableFuture<>());
    synchronized (wire) {
      if (killedNow) {
        request.reply.completeExceptionally(new CacheNodeException(id, "connection refused", null));
      } else if (frozenNow) {
        heldRequests.add(request);
      } else {
        request.apply(this);
      }
    }
    return request.reply;
  }

  /** Freezes the server (SIGSTOP): requests wait until it thaws. */
  void freezeNow() {
    synchronized (wire) {
      frozenNow = true;
    }
  }

  /** Thaws the server: the requests that waited are applied, in the order they came. */
  void thawNow() {
    synchronized (wire) {
      frozenNow = false;
      while (!heldRequests.isEmpty()) {
        heldRequests.poll().apply(this);
      }
    }
  }

  /** Kills the server: what it held is gone, and so are the requests waiting on it. */
  void killNow() {
    synchronized (wire) {
      killedNow = true;
      frozenNow = false;
      for (Request<?> request : heldRequests) {
        // never applied: the connection died with the process
        request.reply.completeExceptionally(new CacheNodeException(id, "connection reset", null));
      }
      heldRequests.clear();
      restartEmpty();
    }
  }

  /** Whether the server is up (not killed). */
  boolean runningNow() {
    synchronized (wire) {
      return !killedNow;
    }
  }

  /** Starts a killed server again, empty, a new incarnation. */
  void startNow() {
    synchronized (wire) {
      if (killedNow) {
        killedNow = false;
        restartEmpty();
      }
    }
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
