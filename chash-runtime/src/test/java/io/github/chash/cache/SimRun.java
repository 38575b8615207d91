package io.github.chash.cache;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.MigrationConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.NullValue;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.RingSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One seed of the protocol simulation: the real {@link RingCacheManager} over {@link SimServer}s,
 * driven by client, membership and maintenance actors and faults, all on a {@link SimScheduler};
 * and the checker.
 *
 * <p>The checker: a "database" holds a version per key; a write op bumps the key's version, then
 * writes the cache ({@code put} of {@code "key#version"}, {@code evict}, {@code putAll}, {@code
 * clear}). Writes of a key may overlap, and then either may win; so a value {@code "key#w"} is
 * stale for a read only when some write of the key began after version w stopped being current
 * (after the next version's database bump and after the write of w itself returned) and completed
 * before the read began: that write is ordered after w by real time, and the read after it. (A
 * loaded value w was current when the loader read it, so it is judged the same way.) Anything else
 * is a violation, reported with the seed and the key's recent trace.
 */
final class SimRun {
  private static final ValueType STRING = ValueType.of(String.class);
  private static final String WHERE = "sim";
  private static final List<Algorithm> ALGORITHMS =
      List.of(
          Algorithm.RING,
          Algorithm.MAGLEV,
          Algorithm.RENDEZVOUS,
          Algorithm.KETAMA,
          Algorithm.JUMP,
          Algorithm.JEDIS);

  /** A read that returned a value older than the last write completed before it began. */
  record Violation(
      long seed,
      String actor,
      String op,
      String key,
      String got,
      long floor,
      String trace,
      String cause) {
    @Override
    public String toString() {
      return "seed "
          + seed
          + ": "
          + actor
          + " "
          + op
          + " of "
          + key
          + " returned "
          + got
          + " after version "
          + floor
          + " was written, which began after that value was superseded and completed before the"
          + " read began ["
          + cause
          + "]";
    }
  }

  /** What one run did. */
  record Result(
      long seed,
      long ops,
      long hash,
      List<Violation> violations,
      long simNanos,
      long slowestOpNanos,
      String slowestOp,
      long steps,
      long lateWakes,
      String setup,
      SimTrace trace,
      long nearHits) {}

  private final long seed;
  private final int ops;
  private final SimScheduler sched;
  private final SimTrace trace;
  private final SplittableRandom setupRandom;
  private final Map<String, SimServer> servers = new TreeMap<>();
  private final List<Violation> violations = new ArrayList<>();

  // the run's settings
  private final int keyCount;
  private final int clients;
  private final Duration ttl;
  private final FailoverConfig failover;
  private final long meanThinkNanos;
  private final double faultRate;
  private final double membershipRate;
  private final double scannableShare;
  private final double localShare; // the share of servers that behave as local shards
  private final double promotingShare; // the share of servers that promote a replica
  private Algorithm algorithm;
  private Duration window;

  /**
   * The cache's near cache in half the seeds, drawn from a stream of its own so that the other
   * seeds run as before; null for none ({@code -Dchash.sim.near=false}: never).
   */
  private final io.github.chash.config.NearConfig near;

  private final List<String> idPool = new ArrayList<>();

  // the checker's database
  private final String[] names;
  private final String[] routingKeys;
  private final Map<String, Integer> indexOf = new LinkedHashMap<>();
  private final long[] db;

  /**
   * Per key and version: {begin tick, end tick (MAX while running), 1 if a put of the value, the
   * version whose bytes the value has (itself, or an earlier one's for a put of equal bytes)}.
   */
  private final List<List<long[]>> writes = new ArrayList<>();

  /** Per key: the versions that wrote another version's bytes again, by that version. */
  private final List<Map<Long, List<Integer>>> sameBytes = new ArrayList<>();

  /** How much weaker than they were the servers are ({@link SimWeaknesses}). */
  private final SimWeaknesses weak;

  /** Per key: the latest begin tick among the completed writes, and that write's version. */
  private final long[] floorBegin;

  private final long[] floorVersion;
  private long tick;

  private RingCacheManager manager;
  private InterceptedCache cache;
  private TypedCache<Object, String> typed;
  private int clientsLeft;
  private long opsDone;
  private long slowest;
  private volatile String lastAdded; // the node the membership thread added last
  private String slowestOp = "";
  private final StringBuilder setup = new StringBuilder();

  SimRun(long seed, int ops, boolean keepTrace) {
    this(seed, ops, keepTrace, SimWeaknesses.fromProperties(SimWeaknesses.ONE_JVM));
  }

  SimRun(long seed, int ops, boolean keepTrace, SimWeaknesses weak) {
    this.seed = seed;
    this.weak = weak;
    this.ops = ops;
    this.sched = new SimScheduler(seed);
    this.trace = new SimTrace(sched, keepTrace);
    this.setupRandom = new SplittableRandom(SimScheduler.mix(seed, 1_000_003));
    SplittableRandom r = setupRandom;
    SplittableRandom nearDice = new SplittableRandom(SimScheduler.mix(seed, 2_000_003));
    near =
        !Boolean.parseBoolean(System.getProperty("chash.sim.near", "true"))
                || nearDice.nextBoolean()
            ? null
            : new io.github.chash.config.NearConfig(
                1_000, Duration.ofMillis(50 + nearDice.nextInt(5_000)));
    int drawnKeys = 8 + r.nextInt(r.nextBoolean() ? 30 : 150);
    // a near cache's races are between reads and writes of one key: few keys, busy clients
    keyCount = near == null ? drawnKeys : 2 + nearDice.nextInt(6);
    clients = 2 + r.nextInt(4);
    ttl = r.nextInt(4) == 0 ? null : Duration.ofMillis(500 + r.nextInt(60_000));
    // drawn apart from the other settings, so that each seed's other choices stay as they were
    SplittableRandom promotion = new SplittableRandom(SimScheduler.mix(seed, 3_000_017));
    promotingShare = promotion.nextInt(3) == 0 ? 0 : promotion.nextDouble();
    failover =
        new FailoverConfig(
                3,
                Duration.ofMillis(300 + r.nextInt(2000)),
                Duration.ofMillis(100),
                onRejoin(r.nextBoolean() ? OnRejoin.FLUSH : OnRejoin.KEEP),
                Duration.ofMillis(500 + r.nextInt(30_000)))
            .withPromotionWait(
                promotion.nextInt(5) == 0
                    ? Duration.ZERO
                    : Duration.ofMillis(100 + promotion.nextInt(4000)));
    algorithm = algorithmPick(r);
    window = windowPick(r);
    // sim time: a run lasts about 5 to 40 s of sim time
    long simTarget = 5_000_000_000L + r.nextLong(35_000_000_000L);
    meanThinkNanos =
        Math.max(100_000, simTarget * clients / Math.max(1, ops) / (near == null ? 1 : 20));
    faultRate = r.nextInt(5) == 0 ? 0 : 0.2 + r.nextDouble() * 2;
    // a change costs real time (the manager samples 100,000 keys to log how many move): a few a run
    membershipRate =
        r.nextInt(6) == 0 || Boolean.getBoolean("chash.sim.noChanges")
            ? 0
            : (1 + r.nextInt(8)) * 1e9 / simTarget;
    scannableShare = r.nextInt(3) == 0 ? 1.0 : r.nextDouble();
    localShare = r.nextInt(3) == 0 ? 0.5 : 0.0;
    for (int i = 0; i < 7; i++) {
      idPool.add("n" + i);
    }
    names = new String[keyCount];
    routingKeys = new String[keyCount];
    db = new long[keyCount];
    floorBegin = new long[keyCount];
    floorVersion = new long[keyCount];
    for (int i = 0; i < keyCount; i++) {
      List<long[]> w = new ArrayList<>();
      w.add(new long[] {0, 0, 0, 0}); // version 0: nothing written yet
      writes.add(w);
      sameBytes.add(new java.util.HashMap<>());
    }
    setup.append(
        String.format(
            "keys=%d clients=%d ttl=%s failover=%s algorithm=%s window=%s think=%.2fms"
                + " faults/s=%.2f changes/s=%.2f scannable=%.2f promoting=%.2f near=%s%s",
            keyCount,
            clients,
            ttl,
            failover,
            algorithm.configName(),
            window,
            meanThinkNanos / 1e6,
            faultRate,
            membershipRate,
            scannableShare,
            promotingShare,
            near == null ? "none" : near.ttl(),
            weak.describe()));
  }

  /**
   * Mostly the algorithms whose reconfiguration is cheap: the manager logs how many keys a change
   * moves, exactly from position maps (ring, ketama, maglev) or else by sampling 100,000 keys
   * (rendezvous, jump, jedis: 25 to 100 ms of real time a change).
   */
  private static Algorithm algorithmPick(SplittableRandom r) {
    return ALGORITHMS.get(r.nextInt(5) > 0 ? r.nextInt(3) : 3 + r.nextInt(3));
  }

  /** The seed's choice, unless {@code -Dchash.sim.onRejoin=flush|keep} fixes it (triage). */
  private static OnRejoin onRejoin(OnRejoin drawn) {
    String fixed = System.getProperty("chash.sim.onRejoin", "");
    return fixed.isBlank()
        ? drawn
        : OnRejoin.valueOf(fixed.trim().toUpperCase(java.util.Locale.ROOT));
  }

  private static Duration windowPick(SplittableRandom r) {
    return r.nextInt(8) == 0 ? Duration.ZERO : Duration.ofMillis(200 + r.nextInt(4000));
  }

  private SimServer server(String id) {
    return servers.computeIfAbsent(
        id,
        i -> {
          SplittableRandom dice = new SplittableRandom(SimScheduler.mix(seed, 77 + i.hashCode()));
          boolean scannable = dice.nextDouble() < scannableShare;
          boolean ordered = dice.nextDouble() >= localShare;
          boolean promotes = ordered && dice.nextDouble() < promotingShare;
          trace.add(
              "setup",
              null,
              "server "
                  + i
                  + (ordered ? "" : " (local-like: unordered, never faulted)")
                  + (scannable || !ordered ? " (scannable)" : " (no SCAN)")
                  + (promotes ? " (promotes a replica)" : ""));
          SimServer s = new SimServer(i, sched, trace, scannable, ordered, promotes);
          if (ordered) {
            weak.configure(s, seed, keyCount); // a local shard is this JVM's own memory
          }
          return s;
        });
  }

  private NodeConfig nodeConfig(String id, int weight) {
    return new NodeConfig(
        id, io.github.chash.config.NodeType.REDIS, weight, 0, "redis://127.0.0.1:" + port(id));
  }

  private static int port(String id) {
    return 17000 + Integer.parseInt(id.substring(1));
  }

  private int weightPick(SplittableRandom r) {
    return algorithm == Algorithm.JUMP || r.nextInt(3) > 0 ? 1 : 1 + r.nextInt(3);
  }

  private ChashConfig config(List<NodeConfig> nodes) {
    ChashConfig.Builder b =
        ChashConfig.builder()
            .ring(RingSettings.of(algorithm))
            .failover(failover)
            .migration(new MigrationConfig(window))
            .cache(new CacheConfig("users", ttl).withNear(near));
    nodes.forEach(b::node);
    return b.build();
  }

  Result run() {
    SplittableRandom r = setupRandom;
    List<NodeConfig> initial = new ArrayList<>();
    int n = 2 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      initial.add(nodeConfig(idPool.get(i), weightPick(r)));
    }
    manager = new SimNode.Factory(sched, trace, this::server).manager(config(initial));
    sched.holdBackStripesOf(List.of(manager));
    cache = InterceptedCache.of(manager.cache("users"));
    typed = manager.cache("users").typed(String.class);
    for (int i = 0; i < keyCount; i++) {
      names[i] = "k" + i;
      routingKeys[i] = cache.routingKey(names[i], WHERE);
      indexOf.put(routingKeys[i], i);
    }
    trace.add("setup", null, "ring " + ringText() + "; " + setup);
    clientsLeft = clients;
    int perClient = Math.max(1, ops / clients);
    for (int c = 0; c < clients; c++) {
      int left = c == 0 ? ops - perClient * (clients - 1) : perClient;
      sched.actor("c" + c, () -> client(left));
    }
    sched.actor("member", this::membership);
    sched.actor("maint", this::maintenance);
    sched.at(sched.now() + 1, this::faultLoop);
    sched.at(sched.now() + 1, this::snapshotLoop);
    weak.start(
        sched,
        trace,
        seed,
        () -> servers.values().stream().filter(s -> s.ordered).toList(),
        () -> clientsLeft > 0);
    long nearHits;
    try {
      sched.run();
    } finally {
      nearHits = manager.cacheStats().get("users").nearHitCount();
      manager.close();
    }
    return new Result(
        seed,
        opsDone,
        trace.hash(),
        violations,
        sched.now(),
        slowest,
        slowestOp,
        sched.steps(),
        sched.lateWakes(),
        setup.toString(),
        trace,
        nearHits);
  }

  private io.github.chash.ring.Ring lastLive;
  private String lastLiveIds = "";

  /** Traces the live ring when an ejection or readmission changed it. */
  private void noteLiveRing(SimScheduler.Actor me) {
    io.github.chash.ring.Ring live = manager.liveRing();
    if (live != lastLive) {
      lastLive = live;
      String ids = live.nodes().stream().map(io.github.chash.ring.Node::id).toList().toString();
      if (!ids.equals(lastLiveIds)) {
        trace.add(me.name, null, "live ring " + lastLiveIds + " -> " + ids);
        lastLiveIds = ids;
      }
    }
  }

  /**
   * A guess at a violation's cause from the trace, for triage (the trace is the evidence): where
   * the stale value was read, who wrote it there and what happened to that server since.
   */
  private String classify(SimScheduler.Actor me, int k, String got) {
    List<SimTrace.Entry> all = trace.of(routingKeys[k], Integer.MAX_VALUE);
    int read = -1;
    for (int i = all.size() - 1; i >= 0; i--) {
      SimTrace.Entry e = all.get(i);
      if (e.who().equals(me.name)
          && e.key() != null
          && (e.text().startsWith("get -> " + got + " @")
              || e.text().startsWith("mget -> " + got + " @")
              || e.text().startsWith("getEntry -> " + got + " "))) {
        read = i;
        break;
      }
    }
    if (read < 0) {
      return "unclassified: no read of the value found";
    }
    String text = all.get(read).text();
    String node = text.substring(text.lastIndexOf('@') + 1);
    int wrote = -1;
    for (int i = read - 1; i >= 0; i--) {
      SimTrace.Entry e = all.get(i);
      if (e.key() != null
          && (e.text().startsWith("put " + got + " ") || e.text().startsWith("mset " + got + " "))
          && e.text().endsWith("@" + node)) {
        wrote = i;
        break;
      }
    }
    List<String> tags = new ArrayList<>();
    // a write op that deleted on a server what it had just written there (two slots of a server)
    for (int i = 0; i < all.size(); i++) {
      SimTrace.Entry e = all.get(i);
      if (e.key() != null && (e.text().startsWith("put ") || e.text().startsWith("mset "))) {
        String at = e.text().substring(e.text().lastIndexOf('@') + 1);
        for (int j = i + 1; j < all.size(); j++) {
          SimTrace.Entry f = all.get(j);
          if (!f.who().equals(e.who())) {
            continue;
          }
          if (f.text().endsWith(" done") || f.text().contains(" -> ")) {
            break;
          }
          if (f.text().startsWith("evict") && f.text().endsWith("@" + at)) {
            tags.add("write deleted by its own prior-delete on the same server " + at + " (4)");
            i = all.size();
            break;
          }
        }
      }
    }
    if (wrote < 0) {
      tags.add("value on " + node + " not written in this trace (snapshot?)");
      return String.join("; ", tags);
    }
    SimTrace.Entry w = all.get(wrote);
    // was the write a fill (the writer's op was a read)?
    for (int i = wrote - 1; i >= 0; i--) {
      SimTrace.Entry e = all.get(i);
      if (e.who().equals(w.who()) && e.key() != null && e.text().contains(" begins")) {
        if (e.text().startsWith("get")) {
          boolean newerDone = false;
          for (int j = i + 1; j < wrote; j++) {
            SimTrace.Entry d = all.get(j);
            newerDone |= d.key() != null && d.text().endsWith(" done") && !d.who().equals(w.who());
          }
          tags.add(newerDone ? "fill landed after a write completed (8)" : "fill by " + w.who());
        }
        break;
      }
    }
    boolean removed = false;
    boolean readded = false;
    boolean swept = false;
    boolean ejection = false;
    boolean restored = false;
    for (int i = wrote + 1; i < read; i++) {
      SimTrace.Entry e = all.get(i);
      String t = e.text();
      removed |=
          t.startsWith("removeNode " + node + " ")
              || t.startsWith("removeNode and addNode " + node + " ");
      readded |=
          removed
              && (t.startsWith("addNode " + node + " ")
                  || t.startsWith("removeNode and addNode " + node + " "));
      swept |= t.startsWith("sweepDue") || t.startsWith("unlink (sweep)");
      ejection |= t.startsWith("live ring");
      restored |= t.startsWith("server " + node + " restarts from an old snapshot");
    }
    boolean scannable = servers.get(node).scannable;
    if (restored) {
      tags.add("old snapshot restored on " + node);
    }
    if (readded) {
      tags.add(
          node
              + " removed and re-added since the write"
              + (failover.onRejoin() == OnRejoin.KEEP ? " (onRejoin keep: not emptied)" : ""));
    } else if (removed) {
      tags.add(node + " removed since the write");
    }
    if (!scannable) {
      tags.add(node + " cannot list its keys (sweep got -1) (1)");
    } else if (swept && ejection) {
      tags.add("swept while the live ring changed (2?)");
    }
    if (tags.isEmpty()) {
      tags.add("written on " + node + " by " + w.who() + " at " + w.time());
    }
    return String.join("; ", tags);
  }

  private String ringText() {
    StringBuilder b = new StringBuilder(algorithm.configName()).append('[');
    manager
        .ring()
        .nodes()
        .forEach(node -> b.append(node.id()).append('/').append(node.weight()).append(' '));
    return b.append(']').toString();
  }

  // ---- clients

  private long think(SplittableRandom r) {
    // bursty: mostly short pauses, sometimes long ones
    double u = r.nextDouble();
    double mean = meanThinkNanos;
    return (long)
            (r.nextInt(4) == 0 ? -Math.log(1 - u) * mean * 3.4 : -Math.log(1 - u) * mean * 0.2)
        + 1;
  }

  private void client(int count) {
    SimScheduler.Actor me = sched.current();
    SplittableRandom r = me.random;
    try {
      for (int i = 0; i < count; i++) {
        sched.sleep(think(r));
        oneOp(me, r);
        opsDone++;
      }
    } finally {
      clientsLeft--;
    }
  }

  private int pickKey(SplittableRandom r) {
    // some keys are hot
    return r.nextInt(3) == 0 ? r.nextInt(Math.min(keyCount, 4)) : r.nextInt(keyCount);
  }

  /** The value of the key's version: its bytes name the version that first wrote them. */
  private String value(int k, long version) {
    return names[k] + "#" + writes.get(k).get((int) version)[3];
  }

  private void oneOp(SimScheduler.Actor me, SplittableRandom r) {
    int dice = r.nextInt(100);
    long start = sched.now();
    String what;
    if (dice < 25) {
      int k = pickKey(r);
      me.opKeys = List.of(routingKeys[k]);
      long v = bump(k, true);
      weak.maybeEqualBytes(writes.get(k), sameBytes.get(k), v, r);
      what = "put " + value(k, v);
      trace.add(me.name, routingKeys[k], what + " begins");
      if (r.nextBoolean()) {
        typed.put(names[k], value(k, v));
      } else {
        cache.put(routingKeys[k], value(k, v));
      }
      completed(me, k, v, what);
    } else if (dice < 32) {
      int k = pickKey(r);
      me.opKeys = List.of(routingKeys[k]);
      long v = bump(k, false);
      what = "evict " + names[k] + " (v" + v + ")";
      trace.add(me.name, routingKeys[k], what + " begins");
      typed.evict(names[k]);
      completed(me, k, v, what);
    } else if (dice < 36) {
      Set<Integer> keys = new LinkedHashSet<>();
      int m = 2 + r.nextInt(4);
      for (int i = 0; i < m; i++) {
        keys.add(pickKey(r));
      }
      Map<Object, String> values = new LinkedHashMap<>();
      List<String> rks = new ArrayList<>();
      long[] versions = new long[keyCount];
      for (int k : keys) {
        versions[k] = bump(k, true);
        values.put(names[k], value(k, versions[k]));
        rks.add(routingKeys[k]);
        trace.add(me.name, routingKeys[k], "putAll " + value(k, versions[k]) + " begins");
      }
      me.opKeys = rks;
      what = "putAll " + values.values();
      typed.putAll(values);
      sched.afterPossibleJoin();
      for (int k : keys) {
        done(k, versions[k]);
        trace.add(me.name, routingKeys[k], "putAll " + value(k, versions[k]) + " done");
      }
    } else if (dice < 37 && r.nextInt(4) == 0) {
      // clear: a write of every key
      long[] versions = new long[keyCount];
      List<String> rks = new ArrayList<>();
      for (int k = 0; k < keyCount; k++) {
        versions[k] = bump(k, false);
        rks.add(routingKeys[k]);
      }
      me.opKeys = rks;
      what = "clear";
      trace.add(me.name, null, "clear begins");
      typed.clear();
      sched.afterPossibleJoin();
      for (int k = 0; k < keyCount; k++) {
        done(k, versions[k]);
      }
      trace.add(me.name, null, "clear done");
    } else if (dice < 60) {
      int k = pickKey(r);
      boolean sync = dice < 50;
      what = (sync ? "get(sync) " : "get(nosync) ") + names[k];
      read(
          me,
          k,
          what,
          () -> {
            if (sync) {
              return typed.get(names[k], key -> load(me, k));
            }
            try {
              return cache.<String>get(routingKeys[k], STRING, () -> load(me, k), false, false);
            } catch (Throwable t) {
              throw new IllegalStateException(t);
            }
          });
    } else if (dice < 88) {
      int k = pickKey(r);
      boolean viaTyped = r.nextBoolean();
      what = "getIfPresent " + names[k];
      read(
          me,
          k,
          what,
          () ->
              viaTyped
                  ? typed.getIfPresent(names[k])
                  : (String) NullValue.unwrap(cache.getIfPresent(routingKeys[k], STRING)));
    } else {
      Set<Integer> keys = new LinkedHashSet<>();
      int m = 2 + r.nextInt(5);
      for (int i = 0; i < m; i++) {
        keys.add(pickKey(r));
      }
      boolean withLoader = r.nextBoolean();
      List<Object> wanted = new ArrayList<>();
      List<String> rks = new ArrayList<>();
      long[] floors = new long[keyCount];
      tick++;
      for (int k : keys) {
        wanted.add(names[k]);
        rks.add(routingKeys[k]);
        floors[k] = floorBegin[k];
        trace.add(me.name, routingKeys[k], "getAll begins (floor v" + floorVersion[k] + ")");
      }
      me.opKeys = rks;
      what = (withLoader ? "getAll(loader) " : "getAll ") + wanted;
      Map<Object, String> got =
          withLoader
              ? typed.getAll(
                  wanted,
                  missing -> {
                    Map<Object, String> out = new LinkedHashMap<>();
                    sched.sleep(r.nextLong(2_000_000));
                    for (Object key : missing) {
                      int k = Integer.parseInt(((String) key).substring(1));
                      out.put(key, value(k, db[k]));
                      trace.add(me.name, routingKeys[k], "bulk loader reads v" + db[k]);
                    }
                    sched.sleep(r.nextLong(1_000_000));
                    return out;
                  })
              : typed.getAll(wanted);
      sched.afterPossibleJoin();
      for (int k : keys) {
        check(me, k, "getAll", got.get(names[k]), floors[k]);
      }
    }
    long took = sched.now() - start;
    if (took > slowest) {
      slowest = took;
      slowestOp = me.name + " " + what + " at " + String.format("%.6fs", start / 1e9);
    }
    me.opKeys = List.of();
    noteLiveRing(me);
  }

  private String load(SimScheduler.Actor me, int k) {
    SplittableRandom r = me.random;
    sched.sleep(r.nextLong(2_000_000));
    long v = db[k];
    trace.add(me.name, routingKeys[k], "loader reads v" + v);
    sched.sleep(r.nextLong(1_000_000));
    return value(k, v);
  }

  /** A write op of the key begins: the database moves to the next version. */
  private long bump(int k, boolean put) {
    long v = ++db[k];
    writes.get(k).add(new long[] {++tick, Long.MAX_VALUE, put ? 1 : 0, v});
    return v;
  }

  /** A write op of the key returned: reads that begin from now on are ordered after it. */
  private void done(int k, long v) {
    long[] w = writes.get(k).get((int) v);
    w[1] = ++tick;
    if (w[0] > floorBegin[k]) {
      floorBegin[k] = w[0];
      floorVersion[k] = v;
    }
  }

  /** A write op completed: reads that begin from now on are ordered after it. */
  private void completed(SimScheduler.Actor me, int k, long v, String what) {
    sched.afterPossibleJoin();
    sched.opReturned(me.opKeys);
    done(k, v);
    trace.add(me.name, routingKeys[k], what + " done");
  }

  private interface Read {
    String read();
  }

  private void read(SimScheduler.Actor me, int k, String what, Read op) {
    me.opKeys = List.of(routingKeys[k]);
    long f = floorBegin[k];
    tick++;
    trace.add(me.name, routingKeys[k], what + " begins (floor v" + floorVersion[k] + ")");
    String got = op.read();
    sched.afterPossibleJoin();
    sched.opReturned(me.opKeys);
    check(me, k, what, got, f);
  }

  private void check(SimScheduler.Actor me, int k, String what, String got, long f) {
    trace.add(me.name, routingKeys[k], what + " -> " + got);
    if (got == null) {
      return;
    }
    int hash = got.indexOf('#');
    boolean ok = hash > 0 && got.substring(0, hash).equals(names[k]);
    if (ok) {
      // the bytes name a version; a later write of the same bytes may be what was read
      int w = Integer.parseInt(got.substring(hash + 1));
      ok = current(writes.get(k), w, f);
      for (int u : sameBytes.get(k).getOrDefault((long) w, List.of())) {
        ok |= current(writes.get(k), u, f);
      }
    }
    if (!ok) {
      long fv = 0;
      for (int v = 1; v < writes.get(k).size(); v++) {
        if (writes.get(k).get(v)[0] == f) {
          fv = v;
        }
      }
      f = fv;
      StringBuilder b = new StringBuilder();
      for (SimTrace.Entry e : trace.of(routingKeys[k], 80)) {
        b.append("  ").append(e).append('\n');
      }
      violations.add(
          new Violation(seed, me.name, what, names[k], got, f, b.toString(), classify(me, k, got)));
    }
  }

  /**
   * Whether version {@code w} may still be read by a read whose floor (the latest begin tick of a
   * write completed before it began) is {@code f}: no write began after w stopped being current
   * (after the next version began, and after w's own put returned) and completed before the read.
   */
  static boolean current(List<long[]> history, int w, long f) {
    long lastValid = w + 1 < history.size() ? history.get(w + 1)[0] : Long.MAX_VALUE;
    if (history.get(w)[2] == 1) {
      lastValid = Math.max(lastValid, history.get(w)[1]);
    }
    return f <= lastValid;
  }

  // ---- membership

  private void membership() {
    SimScheduler.Actor me = sched.current();
    SplittableRandom r = me.random;
    List<String> removed = new ArrayList<>();
    while (clientsLeft > 0) {
      if (membershipRate == 0) {
        sched.sleep(100_000_000);
        continue;
      }
      sched.sleep((long) (-Math.log(1 - r.nextDouble()) * 1e9 / membershipRate) + 1);
      if (clientsLeft == 0) {
        break;
      }
      List<NodeConfig> nodes = new ArrayList<>(manager.nodeConfigs());
      List<String> ids = nodes.stream().map(NodeConfig::id).toList();
      int dice = r.nextInt(100);
      String what;
      try {
        if (dice < 30 && ids.size() < idPool.size()) {
          // add: a new id, or one removed before (its server still holds its old data)
          List<String> candidates = idPool.stream().filter(id -> !ids.contains(id)).toList();
          List<String> back = candidates.stream().filter(removed::contains).toList();
          String id =
              !back.isEmpty() && r.nextBoolean()
                  ? back.get(r.nextInt(back.size()))
                  : candidates.get(r.nextInt(candidates.size()));
          what = "addNode " + id;
          trace.add(me.name, null, what + " begins");
          manager.addNode(nodeConfig(id, weightPick(r)));
          lastAdded = id;
        } else if (dice < 60 && ids.size() > 1) {
          // the newest node often: its keys move back to where their old copies may be
          String id =
              lastAdded != null && ids.contains(lastAdded) && r.nextInt(3) == 0
                  ? lastAdded
                  : ids.get(r.nextInt(ids.size()));
          what = "removeNode " + id;
          trace.add(me.name, null, what + " begins");
          manager.removeNode(id);
          removed.add(id);
        } else if (dice < 75 && algorithm != Algorithm.JUMP) {
          String id = ids.get(r.nextInt(ids.size()));
          int w = 1 + r.nextInt(4);
          what = "reweight " + id + " " + w;
          trace.add(me.name, null, what + " begins");
          manager.reweight(id, w);
        } else if (dice < 85 || r.nextInt(4) == 0) {
          Algorithm next = r.nextInt(3) == 0 ? algorithmPick(r) : algorithm;
          algorithm = next;
          if (r.nextInt(3) == 0) {
            window = windowPick(r);
          }
          List<NodeConfig> reweighted = new ArrayList<>();
          for (NodeConfig node : nodes) {
            reweighted.add(next == Algorithm.JUMP ? node.withWeight(1) : node);
          }
          what = "reconfigure " + next.configName() + " window " + window;
          trace.add(me.name, null, what + " begins");
          manager.reconfigure(config(reweighted));
        } else {
          // remove a node and add it back at once, within its window
          String id = ids.get(r.nextInt(ids.size()));
          what = "removeNode and addNode " + id;
          trace.add(me.name, null, what + " begins");
          int w = nodes.get(ids.indexOf(id)).weight();
          if (ids.size() < 2) {
            continue;
          }
          manager.removeNode(id);
          sched.sleep(r.nextLong(window.toNanos() + 1));
          manager.addNode(nodeConfig(id, w));
        }
        trace.add(me.name, null, what + " done: " + ringText());
      } catch (RuntimeException e) {
        trace.add(me.name, null, "membership change failed: " + e);
      }
      noteLiveRing(me);
      checkStructure();
    }
  }

  /**
   * The protocol's structural invariants, after each change: identity is the id (no two node
   * instances of one id reachable at once: a re-added node is the same node), and the chain of
   * previous rings is bounded. Breaking one is an error of the run, naming the seed.
   */
  private void checkStructure() {
    Routing routing = manager.routing();
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (NodeSlot slot : routing.reachableSlots()) {
      if (!ids.add(slot.id())) {
        throw new AssertionError(
            "seed " + seed + ": two instances of node " + slot.id() + " reachable at once");
      }
    }
    if (routing.priors.size() > Membership.MAX_PRIORS) {
      throw new AssertionError(
          "seed "
              + seed
              + ": "
              + routing.priors.size()
              + " previous rings kept, more than "
              + Membership.MAX_PRIORS);
    }
  }

  // ---- maintenance: probes, mark clean-ups and sweeps, as the manager's own thread would run them

  private void maintenance() {
    SimScheduler.Actor me = sched.current();
    SplittableRandom r = me.random;
    while (clientsLeft > 0) {
      sched.sleep(20_000_000 + r.nextLong(400_000_000));
      if (clientsLeft == 0) {
        break;
      }
      String live = manager.liveRing().nodes().toString();
      manager.failurePolicy().probeDue();
      noteLiveRing(me);
      String after = manager.liveRing().nodes().toString();
      if (!after.equals(live)) {
        trace.add(me.name, null, "probeDue: live ring " + live + " -> " + after);
      }
      if (r.nextInt(2) == 0) {
        int deleted = manager.failurePolicy().cleanMarks();
        if (deleted > 0) {
          trace.add(me.name, null, "cleanMarks: deleted " + deleted);
        }
      }
      if (r.nextInt(3) > 0) {
        int priorsBefore = manager.membership().allSlots().size();
        manager.membership().sweepDue();
        int priorsAfter = manager.membership().allSlots().size();
        if (priorsAfter != priorsBefore) {
          trace.add(
              me.name, null, "sweepDue: reachable nodes " + priorsBefore + " -> " + priorsAfter);
        }
      }
    }
  }

  // ---- faults, injected by the scheduler itself

  private void faultLoop() {
    if (clientsLeft == 0) {
      return;
    }
    SplittableRandom r = sched.random;
    if (faultRate > 0) {
      sched.at(
          sched.now() + (long) (-Math.log(1 - r.nextDouble()) * 1e9 / faultRate) + 1, this::fault);
    }
  }

  private void fault() {
    if (clientsLeft == 0) {
      return;
    }
    SplittableRandom r = sched.random;
    List<String> ids = new ArrayList<>(servers.keySet());
    // the newest node often: its keys just moved, the window and the sweep are running
    String id = lastAdded != null && r.nextInt(3) == 0 ? lastAdded : ids.get(r.nextInt(ids.size()));
    SimServer s = servers.get(id);
    if (!s.ordered) {
      faultLoop(); // a local shard does not fail
      return;
    }
    long now = sched.now();
    long d = 50_000_000L + r.nextLong(r.nextBoolean() ? 300_000_000L : 3_000_000_000L);
    int dice = r.nextInt(100);
    String what;
    if (dice < 20) {
      s.downUntil = now + d;
      s.breakChannels(); // a server that is down has closed its connections
      what = "down for " + ms(d);
    } else if (dice < 35) {
      s.frozenUntil = now + d;
      what = "frozen for " + ms(d);
    } else if (dice < 50) {
      s.slowUntil = now + d;
      what = "slow for " + ms(d);
    } else if (dice < 62) {
      s.refuseWritesUntil = now + d;
      what = "refuses writes for " + ms(d);
    } else if (dice < 75) {
      s.dropRepliesUntil = now + d;
      s.dropNext = false;
      what = "drops every other reply for " + ms(d);
    } else if (dice < 85) {
      s.loseEverything();
      what = "restarts empty";
    } else if (failover.onRejoin() == OnRejoin.FLUSH && isOut(s.id)) {
      // an old snapshot comes back only on a server this JVM ejected: with flush it is emptied
      // before it serves again. A server that restarts with old data while it serves, or with
      // onRejoin: keep, is SimWeaknesses' restarts, on in verify since the node recognises a
      // restart by the server's incarnation (issue 40).
      s.downUntil = now + d;
      what = "restarts from an old snapshot (" + s.restore(r.nextInt()) + "), down for " + ms(d);
    } else {
      s.downUntil = now + d;
      s.breakChannels();
      what = "down for " + ms(d);
    }
    if (near != null && dice >= 20 && dice < 35 && r.nextBoolean()) {
      s.breakChannels(); // with a freeze, a killed tracking connection (CLIENT KILL): only it
      what += ", its tracking connections killed";
    }
    trace.add("fault", null, "server " + s.id + " " + what);
    faultLoop();
  }

  private boolean isOut(String id) {
    return manager.liveRing().nodes().stream().noneMatch(n -> n.id().equals(id))
        && manager.ring().nodes().stream().anyMatch(n -> n.id().equals(id));
  }

  private void snapshotLoop() {
    if (clientsLeft == 0) {
      return;
    }
    servers.values().forEach(SimServer::snapshot);
    sched.at(
        sched.now() + 500_000_000L + sched.random.nextLong(1_000_000_000L), this::snapshotLoop);
  }

  private static String ms(long nanos) {
    return nanos / 1_000_000 + "ms";
  }
}
