package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import io.github.chash.internal.node.ClientStalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A client of one {@link SimServer}, as the manager sees a Redis node. Every call is a yield point
 * of the scheduler: the calling actor parks until its reply's sim time; the request is applied on
 * the server at a sim time between send and reply (a world event), or when a freeze ends, or not at
 * all (a server that is down), in the order the client sent them (one connection). A reply later
 * than the node timeout is a {@link CacheNodeException} at the timeout, whatever happens to the
 * request afterwards.
 *
 * <p>Over a server called directly ({@link SimServer#calledDirectly}, a {@link SimFleet}'s), no
 * scheduler runs: a call is a real thread's request, applied at once, or when the frozen server
 * thaws, and waited for at most {@code timeoutNanos} of real time; such a node has no invalidation
 * channel.
 */
final class SimNode implements CacheNode {
  /** Keys a sweep's SCAN returns at a time. */
  static final int SCAN_BATCH = 8;

  final SimServer server;
  private final long timeoutNanos;
  private final int generation;
  private final Link link;
  private volatile boolean closed;
  private long lastApplyAt;

  SimNode(SimServer server, long timeoutNanos, int generation) {
    this(server, timeoutNanos, generation, Link.CLEAR);
  }

  SimNode(SimServer server, long timeoutNanos, int generation, Link link) {
    this.server = server;
    this.timeoutNanos = timeoutNanos;
    this.generation = generation;
    this.link = link;
    server.connections.incrementAndGet();
  }

  /**
   * Planted in this model of the nodes' deadline: a call's timeout counts the time its own JVM
   * stalled (paused, starved of CPU), as it did before the timeout counted awake time ({@code
   * ClientStalls}): a JVM's own trouble then fails calls to healthy servers.
   */
  static final String STALLS_COUNTED = "the timeout counts the client's stalls";

  /**
   * What lies between one JVM and the servers, its own trouble rather than a server's: a pause (a
   * long GC, a frozen container), a starved CPU, a network cut to one server. Shared by every node
   * of that JVM.
   */
  interface Link {
    /** No trouble. */
    Link CLEAR = (server, now) -> 0;

    /** A request that never arrives (a cut): its call times out and it is never applied. */
    long CUT = Long.MAX_VALUE;

    /**
     * How long a request to {@code server} made at {@code now} waits before it leaves this JVM (a
     * pause, a starved event loop), or {@link #CUT}.
     */
    long delayNanos(String server, long now);
  }

  /** Makes the nodes of {@code type: redis} as clients of the run's servers. */
  static final class Factory implements CacheNodeFactory {
    private final SimScheduler sched;
    private final SimTrace trace;
    private final Function<String, SimServer> servers;
    private final Link link;
    private final Map<String, Integer> made = new HashMap<>();

    Factory(SimScheduler sched, SimTrace trace, Function<String, SimServer> servers) {
      this(sched, trace, servers, Link.CLEAR);
    }

    /** The clients of one JVM, whose requests pass its {@code link}. */
    Factory(SimScheduler sched, SimTrace trace, Function<String, SimServer> servers, Link link) {
      this.sched = sched;
      this.trace = trace;
      this.servers = servers;
      this.link = link;
    }

    /**
     * A manager of {@code config} whose nodes are this factory's, on the scheduler's clock: its
     * waits are the scheduler's sleeps, and the run drives its probes and sweeps.
     */
    RingCacheManager manager(ChashConfig config) {
      return (RingCacheManager)
          ShardedCaches.builder()
              .config(config)
              .ticker(sched.clock)
              .pause(sched::sleep)
              .scheduleProbes(false)
              .nodeFactory(this)
              .build();
    }

    @Override
    public NodeType type() {
      return NodeType.REDIS;
    }

    @Override
    public CacheNode create(NodeConfig node, ChashConfig config) {
      int g = made.merge(node.id(), 1, Integer::sum);
      trace.add(who(), null, "client #" + g + " of server " + node.id() + " created");
      return new SimNode(servers.apply(node.id()), config.failover().timeout().toNanos(), g, link);
    }

    private String who() {
      try {
        return sched.current().name;
      } catch (IllegalStateException e) {
        return "setup";
      }
    }
  }

  @Override
  public String id() {
    return server.id;
  }

  /**
   * The server's current incarnation id, which changes at every restart (empty, or from an old
   * snapshot), as Redis's {@code run_id} in {@code INFO server} does; read without a call.
   */
  String serverRunId() {
    return server.runId();
  }

  @Override
  public boolean promotesReplica() {
    return server.promotes;
  }

  private static final class Reply<T> {
    T value;
    boolean lost;
  }

  /**
   * One request: parks the calling actor until the reply; {@code body} runs on the server at the
   * request's apply time, on the scheduler's thread, and describes itself for the trace.
   */
  private <T> T call(String op, String key, boolean write, Function<SimServer, T> body) {
    if (server.calledDirectly) {
      return callDirectly(op, body);
    }
    SimScheduler s = server.sched;
    SimScheduler.Actor me = s.current();
    if (closed) {
      throw new CacheNodeException(id(), op + ": client #" + generation + " closed", null);
    }
    SplittableRandom rnd = me.random;
    long now = s.now();
    long held = link.delayNanos(id(), now);
    if (held == Link.CUT) {
      s.sleep(timeoutNanos);
      throw new CacheNodeException(id(), op + ": command timed out (no route)", null);
    }
    long latency = 50_000 + rnd.nextLong(250_000);
    if (server.slowUntil > now) {
      latency += timeoutNanos / 2 + rnd.nextLong(Math.max(1, timeoutNanos * 9 / 20));
    }
    if (server.downUntil > now) {
      s.sleep(Math.min(latency + 500_000, timeoutNanos));
      throw new CacheNodeException(id(), op + ": connection refused", null);
    }
    if (write && server.refuseWritesUntil > now) {
      s.sleep(latency);
      throw new CacheNodeException(id(), op + ": READONLY", null);
    }
    boolean drop = false;
    if (server.dropRepliesUntil > now) {
      drop = server.dropNext;
      server.dropNext = !drop;
    }
    long sentAt = now + held;
    long applyAt =
        server.frozenUntil > sentAt
            ? server.frozenUntil + rnd.nextLong(latency)
            : sentAt + rnd.nextLong(latency);
    if (server.ordered) {
      // one connection, as Lettuce's: the server applies a client's requests in the order sent
      applyAt = Math.max(applyAt, lastApplyAt + 1);
      lastApplyAt = applyAt;
    }
    long replyAt = Math.max(applyAt + 1, sentAt + latency);
    Reply<T> reply = new Reply<>();
    String who = me.name;
    int incarnationAtSend = server.incarnation();
    s.at(
        applyAt,
        () -> {
          if (server.incarnation() != incarnationAtSend) {
            // the connection it was sent on broke with the restart: never applied
            reply.lost = true;
            server.trace.add(who, key, op + " on " + id() + " lost (server restarted)");
            return;
          }
          if (server.downUntil > s.now()) {
            reply.lost = true;
            server.trace.add(who, key, op + " on " + id() + " lost (server down)");
            return;
          }
          reply.value = body.apply(server);
        });
    // the timeout counts the client's awake time (ClientStalls): this JVM's own stall does not
    // count, up to the bound no call waits beyond, where the call is a stall, not the server's
    long bound = Math.max(10 * timeoutNanos, 1_000_000_000L);
    if (held > 0 && replyAt - now > bound && !Planted.on(STALLS_COUNTED)) {
      s.sleepUntil(Math.max(now + bound, sentAt));
      throw new CacheNodeException(
          id(), op + ": client stalled", ClientStalls.stalledFailure(s.now() - now));
    }
    long timedOutFrom = Planted.on(STALLS_COUNTED) ? now : sentAt;
    if (replyAt - timedOutFrom > timeoutNanos) {
      s.sleepUntil(timedOutFrom + timeoutNanos);
      throw new CacheNodeException(id(), op + ": command timed out", null);
    }
    int restartsAtSend = server.restarts;
    s.sleepUntil(replyAt);
    if (server.restarts != restartsAtSend || server.incarnation() != incarnationAtSend) {
      server.trace.add(who, key, op + " on " + id() + ": connection broken by a restart");
      throw new CacheNodeException(id(), op + ": connection reset (server restarted)", null);
    }
    if (reply.lost) {
      throw new CacheNodeException(id(), op + ": connection reset", null);
    }
    if (drop) {
      server.trace.add(who, key, op + " on " + id() + ": reply dropped");
      throw new CacheNodeException(id(), op + ": connection reset (reply lost)", null);
    }
    return reply.value;
  }

  /**
   * One request from a real thread to a server called directly: the reply, or a {@link
   * CacheNodeException} once the node timeout has passed (the server frozen: the request is still
   * applied when it thaws) or the server is down.
   */
  private <T> T callDirectly(String op, Function<SimServer, T> body) {
    if (closed) {
      throw new CacheNodeException(id(), op + ": client #" + generation + " closed", null);
    }
    try {
      return server.request(body).get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new CacheNodeException(id(), op + ": command timed out", null);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof CacheNodeException c
          ? new CacheNodeException(id(), op + ": " + c.getMessage(), null)
          : new IllegalStateException(op + " on " + id(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CacheNodeException(id(), op + ": interrupted", e);
    }
  }

  private void log(String who, String key, String text) {
    server.trace.add(who, key, text + " @" + id());
  }

  @Override
  public Object get(String key, ValueType type) {
    String who = caller();
    return call(
        "get",
        key,
        false,
        srv -> {
          Object v = srv.get(key);
          log(who, key, "get -> " + v);
          return v;
        });
  }

  @Override
  public StoredEntry getEntry(String key, ValueType type) {
    String who = caller();
    return call(
        "getEntry",
        key,
        false,
        srv -> {
          StoredEntry e = srv.getEntry(key);
          log(who, key, "getEntry -> " + (e == null ? null : e.value() + " ttl " + e.ttl()));
          return e;
        });
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    String who = caller();
    call(
        "put",
        key,
        true,
        srv -> {
          srv.put(key, value, ttl);
          log(who, key, "put " + value + " ttl " + ttl);
          return null;
        });
  }

  @Override
  public boolean conditional() {
    return server.ordered; // a local-like server stands for a local shard, which has none
  }

  @Override
  public CompletableFuture<Held> getHeld(String key, ValueType type) {
    String who = caller();
    try {
      return CompletableFuture.completedFuture(
          call(
              "getHeld",
              key,
              false,
              srv -> {
                Held h = srv.held(key);
                log(who, key, "getHeld -> " + (h.marker() != null ? h.marker() : h.value()));
                return h;
              }));
    } catch (CacheNodeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public boolean putIf(String key, Held expected, Object value, Duration ttl) {
    String who = caller();
    return call(
        "putIf",
        key,
        true,
        srv -> {
          boolean done = srv.putIf(key, expected, value, ttl);
          log(who, key, "putIf " + value + (done ? "" : " (not held)") + " ttl " + ttl);
          return done;
        });
  }

  @Override
  public boolean putIfLeased(String key, Marker lease, Object value, Duration ttl) {
    String who = caller();
    return call(
        "putIfLeased",
        key,
        true,
        srv -> {
          boolean done = srv.putIfLeased(key, lease, value, ttl);
          log(who, key, "put " + value + (done ? "" : " (lease gone: not stored)") + " ttl " + ttl);
          return done;
        });
  }

  @Override
  public boolean deleteIf(String key, Held expected) {
    String who = caller();
    return call(
        "deleteIf",
        key,
        true,
        srv -> {
          boolean done = srv.deleteIf(key, expected);
          log(who, key, "deleteIf" + (done ? "" : " (changed: kept)"));
          return done;
        });
  }

  @Override
  public boolean deleteIfLeased(String key, Marker lease) {
    String who = caller();
    return call(
        "deleteIfLeased",
        key,
        true,
        srv -> {
          boolean done = srv.deleteIfLeased(key, lease);
          log(who, key, "lease given back" + (done ? "" : " (lease gone: kept)"));
          return done;
        });
  }

  @Override
  public boolean lease(String key, Marker lease, Duration ttl) {
    String who = caller();
    return call(
        "lease",
        key,
        true,
        srv -> {
          boolean done = srv.lease(key, lease, ttl);
          log(who, key, "lease" + (done ? "" : " refused (held)"));
          return done;
        });
  }

  @Override
  public void evict(String key) {
    String who = caller();
    call(
        "evict",
        key,
        true,
        srv -> {
          boolean had = srv.evict(key);
          log(who, key, "evict" + (had ? "" : " (absent)"));
          return null;
        });
  }

  @Override
  public CompletableFuture<Map<String, Object>> getAll(List<String> keys, ValueType type) {
    String who = caller();
    try {
      Map<String, Object> found =
          call(
              "mget",
              null,
              false,
              srv -> {
                Map<String, Object> out = new HashMap<>();
                for (String k : keys) {
                  Object v = srv.get(k);
                  log(who, k, "mget -> " + v);
                  if (v != null) {
                    out.put(k, v);
                  }
                }
                return out;
              });
      return CompletableFuture.completedFuture(found);
    } catch (CacheNodeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<Map<String, ValueRefusedException>> putAll(
      Map<String, Object> values, Duration ttl) {
    String who = caller();
    Map<String, Object> copy = new LinkedHashMap<>(values);
    try {
      call(
          "mset",
          null,
          true,
          srv -> {
            copy.forEach(
                (k, v) -> {
                  srv.put(k, v, ttl);
                  log(who, k, "mset " + v + " ttl " + ttl);
                });
            return null;
          });
      return CompletableFuture.completedFuture(new HashMap<>());
    } catch (CacheNodeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public long deleteKeys(Predicate<String> doomed, int keysPerSecond) {
    if (!server.scannable) {
      return -1;
    }
    String who = caller();
    long deleted = 0;
    String cursor = null;
    while (true) {
      long started = server.sched.now();
      String from = cursor;
      List<String> page = call("scan", null, false, srv -> srv.scan(from, SCAN_BATCH));
      List<String> gone = new ArrayList<>();
      for (String k : page) {
        if (doomed.test(k)) {
          gone.add(k);
        }
      }
      if (!gone.isEmpty()) {
        deleted +=
            call(
                "unlink",
                null,
                true,
                srv -> {
                  long n = 0;
                  for (String k : gone) {
                    if (srv.evict(k)) {
                      n++;
                      log(who, k, "unlink (sweep)");
                    }
                  }
                  return n;
                });
      }
      if (page.size() < SCAN_BATCH || closed) {
        return deleted;
      }
      cursor = page.get(page.size() - 1);
      long due = started + page.size() * 1_000_000_000L / Math.max(1, keysPerSecond);
      if (!server.calledDirectly && due > server.sched.now()) {
        server.sched.sleepUntil(due);
      }
    }
  }

  @Override
  public void clear() {
    clear(null);
  }

  @Override
  public void clear(String routingKeyPrefix) {
    String who = caller();
    call(
        "clear",
        null,
        true,
        srv -> {
          srv.clear(routingKeyPrefix);
          server.trace.add(
              who,
              null,
              "clear" + (routingKeyPrefix == null ? "" : " " + routingKeyPrefix) + " @" + id());
          return null;
        });
  }

  @Override
  public void ping() {
    call("ping", null, false, srv -> null);
  }

  @Override
  public long estimatedSize() {
    return server.size();
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      server.connections.decrementAndGet();
      server.trace.addUnhashed(who(), null, "client #" + generation + " of " + id() + " closed");
      Channel c = channel;
      if (c != null) {
        server.sched.at(server.sched.now(), c::close);
      }
    }
  }

  private volatile Channel channel;

  /** A channel of its own on the server, which reports every change it hears of, late. */
  @Override
  public boolean track(List<String> routingKeyPrefixes, Invalidations listener) {
    if (server.calledDirectly) {
      return false; // its channel's reports are world events of a scheduler that never runs
    }
    Channel c = new Channel(listener);
    channel = c;
    server.sched.at(server.sched.now() + 1, () -> c.arm(server.sched.now()));
    return true;
  }

  /**
   * A near cache's invalidation channel, as {@code RedisTracking} is one: armed at a world event on
   * the server (tracking on from then), acknowledged to the listener after a delay, and each change
   * the server makes after that reported after a delay of up to 5 ms, in order. When the server's
   * connections break (a crash, a restart, a killed client) the reports under way are lost, the
   * listener hears of the loss 0 to 20 ms later, and the channel is armed again once the server is
   * up. All on the scheduler's thread.
   */
  final class Channel {
    private final Invalidations listener;

    /** The channel's connection: each break starts a new one, and drops the old one's reports. */
    private int connection;

    private long lastDelivery;
    private boolean gone;

    Channel(Invalidations listener) {
      this.listener = listener;
    }

    void arm(long at) {
      SimScheduler s = server.sched;
      int conn = connection;
      s.at(
          at,
          () -> {
            if (gone || conn != connection) {
              return;
            }
            if (server.downUntil > s.now()) {
              arm(server.downUntil + 1 + s.random.nextLong(50_000_000L));
              return;
            }
            server.track(this);
            server.trace.add(
                "channel", null, "tracking on " + id() + " (client #" + generation + ")");
            deliver(conn, listener::tracking);
          });
    }

    void changed(String key) {
      deliver(connection, () -> listener.changed(key));
    }

    void broken() {
      SimScheduler s = server.sched;
      int conn = ++connection;
      long noticed = s.now() + 1 + s.random.nextLong(20_000_000L);
      s.at(
          noticed,
          () -> {
            if (!gone) {
              server.trace.add("channel", null, "tracking lost on " + id());
              listener.lost();
            }
          });
      if (conn == connection) {
        arm(noticed + 10_000_000L + s.random.nextLong(100_000_000L));
      }
    }

    void close() {
      gone = true;
      server.untrack(this);
    }

    private void deliver(int conn, Runnable report) {
      SimScheduler s = server.sched;
      // mostly within 5 ms, as on a quiet network; one in ten up to 500 ms (a pause, a backlog)
      long delay = s.random.nextLong(s.random.nextInt(10) == 0 ? 500_000_000L : 5_000_000L);
      long at = Math.max(lastDelivery + 1, s.now() + 1 + delay);
      lastDelivery = at;
      s.at(
          at,
          () -> {
            if (!gone && conn == connection) {
              report.run();
            }
          });
    }
  }

  private String who() {
    try {
      return server.sched.current().name;
    } catch (IllegalStateException e) {
      return "setup";
    }
  }

  /** The caller, for the trace: the running actor, or a real thread on a server called directly. */
  private String caller() {
    return server.calledDirectly ? Thread.currentThread().getName() : server.sched.current().name;
  }
}
