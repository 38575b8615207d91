package io.github.chash.cache;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.MigrationConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.RingSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One seed of the fleet simulation: several JVMs (each a real {@link RingCacheManager} with its own
 * clients, ring view and maintenance) over the same {@link SimServer}s, and a rolling membership
 * change: each change of a planned sequence (a node added, one removed, one added back) reaches
 * every JVM at its own moment, in any order, within the migration window. One checker over all of
 * them: a read in any JVM must return a value no older than the last write completed, in any JVM,
 * before the read began, or a miss (the rule of {@link SimRun}'s checker). A loaded value carries
 * the moment its loader read the database, and is stale too once a write that began after that
 * moment completed before the read began: a slow fill must not store a value older than a write or
 * evict another JVM completed meanwhile.
 *
 * <p>Half the seeds (unless {@code -Dchash.fleet.near=false}) give every JVM's cache a near cache:
 * a near hit may miss another JVM's write whose report is still on its way, and is held to that
 * bound ({@link #NEAR_BOUND_NANOS}) instead.
 *
 * <p>No server faults: failure detection is per JVM (an ejection in one JVM is not seen by the
 * others), which the cross-JVM guarantee leaves out, and which {@link SimRun} covers within a JVM.
 */
final class FleetSimRun {
  private static final ValueType STRING = ValueType.of(String.class);
  private static final String WHERE = "sim";
  private static final List<Algorithm> ALGORITHMS =
      List.of(Algorithm.RING, Algorithm.MAGLEV, Algorithm.KETAMA, Algorithm.RENDEZVOUS);

  /** What one run did. */
  record Result(
      long seed, long ops, long hash, List<String> violations, String setup, long nearHits) {}

  private final long seed;
  private final int ops;
  private final SimScheduler sched;
  private final SimTrace trace;
  private final SplittableRandom setupRandom;
  private final Map<String, SimServer> servers = new TreeMap<>();
  private final List<String> violations = new ArrayList<>();

  private final int keyCount;
  private final int jvms;
  private final int clientsPerJvm;
  private final Duration ttl;
  private final Duration window;
  private final long spreadNanos;
  private final Algorithm algorithm;
  private final long meanThinkNanos;
  private final FailoverConfig failover;

  /** Every JVM's near cache of {@code users}, or null. */
  private final io.github.chash.config.NearConfig near;

  /**
   * How late a near hit may be about another JVM's write: the channel's slowest report (500 ms) and
   * the notice of its loss (20 ms), with room to spare. A near cache promises no more between JVMs
   * (configuration.md); a hit older than a write completed this long before it began is stale.
   */
  static final long NEAR_BOUND_NANOS = 600_000_000L;

  private final String[] names;
  private final long[] db;

  /** Per key and version, as {@link SimRun}'s: begin, end, put, the version of its bytes. */
  private final List<List<long[]>> writes = new ArrayList<>();

  /** Per key: the versions that wrote another version's bytes again, by that version. */
  private final List<Map<Long, List<Integer>>> sameBytes = new ArrayList<>();

  private final SimWeaknesses weak;
  private final long[] floorBegin;
  private long tick;
  private long opsDone;
  private int clientsLeft;
  private final List<Jvm> fleet = new ArrayList<>();
  private List<NodeConfig> initial;
  private boolean[][] restarts;

  /** Per change, whether the next one starts while its rollout runs. */
  private boolean[] hurried;

  private final StringBuilder setup = new StringBuilder();

  /** Every manager any JVM ran, replaced ones included: closed at the end. */
  private final List<RingCacheManager> managers = new ArrayList<>();

  /**
   * One JVM of the fleet; a restart replaces its manager with a fresh one (a new pod under the same
   * name), whose clients take over the old one's.
   */
  private final class Jvm {
    final String name;
    RingCacheManager manager;
    InterceptedCache cache;
    TypedCache<Object, String> typed;
    final String[] routingKeys = new String[keyCount];

    Jvm(String name, List<NodeConfig> nodes) {
      this.name = name;
      start(config(nodes));
      for (int i = 0; i < keyCount; i++) {
        routingKeys[i] = cache.routingKey(names[i], WHERE);
      }
    }

    /**
     * Replaces this JVM with a fresh one started on {@code config}; the old manager's calls under
     * way finish, and it takes no new ones (a pod that terminates gracefully).
     */
    void start(ChashConfig config) {
      manager = new SimNode.Factory(sched, trace, FleetSimRun.this::server).manager(config);
      managers.add(manager);
      cache = InterceptedCache.of(manager.cache("users"));
      typed = manager.cache("users").typed(String.class);
    }

    long nearHits() {
      return manager.cacheStats().get("users").nearHitCount();
    }
  }

  FleetSimRun(long seed, int ops, boolean keepTrace) {
    this(
        seed,
        ops,
        keepTrace,
        SimWeaknesses.fromProperties(SimWeaknesses.FLEET),
        Boolean.parseBoolean(System.getProperty("chash.fleet.near", "true")));
  }

  /** A run without near caches (the seeds that found bugs before they were drawn). */
  FleetSimRun(long seed, int ops, boolean keepTrace, SimWeaknesses weak) {
    this(seed, ops, keepTrace, weak, false);
  }

  /**
   * @param nearCaches whether half the seeds (drawn from a stream of their own) give every JVM's
   *     cache a near cache, whose hits are held to the bound near caches promise between JVMs
   */
  FleetSimRun(long seed, int ops, boolean keepTrace, SimWeaknesses weak, boolean nearCaches) {
    this.seed = seed;
    this.weak = weak;
    this.ops = ops;
    this.sched = new SimScheduler(seed);
    this.trace = new SimTrace(sched, keepTrace);
    this.setupRandom = new SplittableRandom(SimScheduler.mix(seed, 2_000_003));
    SplittableRandom r = setupRandom;
    keyCount = 4 + r.nextInt(r.nextBoolean() ? 12 : 60);
    jvms = 2 + r.nextInt(3);
    clientsPerJvm = 1 + r.nextInt(3);
    ttl = r.nextInt(4) == 0 ? null : Duration.ofMillis(2_000 + r.nextInt(60_000));
    window = Duration.ofMillis(1_000 + r.nextInt(6_000));
    // the rollout of each change to every JVM fits in the window, as operations.md asks
    spreadNanos = (long) (window.toNanos() * (0.1 + 0.8 * r.nextDouble()));
    algorithm = ALGORITHMS.get(r.nextInt(ALGORITHMS.size()));
    failover =
        new FailoverConfig(
            Boolean.getBoolean("chash.fleet.drops") ? 1_000_000 : 3,
            Duration.ofSeconds(1),
            Duration.ofMillis(100),
            onRejoin(seed),
            Duration.ofMillis(500 + r.nextInt(30_000)));
    SplittableRandom nearDice = new SplittableRandom(SimScheduler.mix(seed, 3_000_017));
    near =
        nearCaches && nearDice.nextBoolean()
            ? new io.github.chash.config.NearConfig(
                1_000, Duration.ofMillis(1_000 + nearDice.nextInt(9_000)))
            : null;
    long simTarget = 4_000_000_000L + r.nextLong(12_000_000_000L);
    meanThinkNanos = Math.max(100_000, simTarget * jvms * clientsPerJvm / Math.max(1, ops));
    names = new String[keyCount];
    db = new long[keyCount];
    floorBegin = new long[keyCount];
    for (int i = 0; i < keyCount; i++) {
      names[i] = "k" + i;
      List<long[]> w = new ArrayList<>();
      w.add(new long[] {0, 0, 0, 0, 0});
      writes.add(w);
      sameBytes.add(new java.util.HashMap<>());
    }
    setup.append(
        String.format(
            "keys=%d jvms=%d clients/jvm=%d ttl=%s window=%s spread=%dms algorithm=%s"
                + " think=%.2fms near=%s onRejoin=%s%s",
            keyCount,
            jvms,
            clientsPerJvm,
            ttl,
            window,
            spreadNanos / 1_000_000,
            algorithm.configName(),
            meanThinkNanos / 1e6,
            near == null ? "none" : near.ttl(),
            failover.onRejoin(),
            weak.describe()));
  }

  /**
   * How a node ejected in one JVM comes back: {@code keep}, the default, in three seeds of four,
   * {@code flush} in the rest, from dice of their own so that the rest of a seed runs as before.
   */
  private static OnRejoin onRejoin(long seed) {
    return new SplittableRandom(SimScheduler.mix(seed, 4_000_037)).nextInt(4) == 0
        ? OnRejoin.FLUSH
        : OnRejoin.KEEP;
  }

  private SimServer server(String id) {
    return servers.computeIfAbsent(
        id,
        i -> {
          SplittableRandom dice = new SplittableRandom(SimScheduler.mix(seed, 91 + i.hashCode()));
          SimServer s = new SimServer(i, sched, trace, dice.nextInt(3) > 0, true);
          if (!s.scannable) {
            trace.add("setup", null, i + " cannot list its keys (as memcached)");
          }
          weak.configure(s, seed, keyCount);
          return s;
        });
  }

  private static NodeConfig nodeConfig(String id) {
    return new NodeConfig(
        id,
        io.github.chash.config.NodeType.REDIS,
        1,
        0,
        "redis://127.0.0.1:" + (17000 + Integer.parseInt(id.substring(1))));
  }

  private ChashConfig config(List<NodeConfig> nodes) {
    return config(nodes, List.of());
  }

  /** The configuration of {@code nodes}, naming the rings it replaces, newest first. */
  private ChashConfig config(List<NodeConfig> nodes, List<List<NodeConfig>> replaced) {
    java.time.Instant since = java.time.Instant.now();
    ChashConfig.Builder b =
        ChashConfig.builder()
            .ring(RingSettings.of(algorithm))
            .failover(failover)
            .migration(
                new MigrationConfig(
                    window,
                    replaced.stream()
                        .map(ring -> new MigrationConfig.Replaces(since, ring))
                        .toList()))
            .cache(new CacheConfig("users", ttl).withNear(near));
    nodes.forEach(b::node);
    return b.build();
  }

  Result run() {
    SplittableRandom r = setupRandom;
    int n = 2 + r.nextInt(3);
    initial = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      initial.add(nodeConfig("n" + i));
    }
    // the planned changes: the whole fleet moves from each node set to the next
    List<List<NodeConfig>> plan = new ArrayList<>();
    List<NodeConfig> current = initial;
    int changes = 1 + r.nextInt(3);
    String added = null;
    for (int c = 0; c < changes; c++) {
      List<NodeConfig> next = new ArrayList<>(current);
      if (added != null && r.nextBoolean()) {
        String gone = added;
        next.removeIf(node -> node.id().equals(gone));
        added = null;
      } else if (next.size() > 1 && r.nextInt(3) == 0) {
        next.remove(r.nextInt(next.size()));
      } else {
        added = "n" + (n + c);
        next.add(nodeConfig(added));
      }
      plan.add(next);
      current = next;
    }
    hurried = hurried(plan);
    for (int j = 0; j < jvms; j++) {
      fleet.add(new Jvm("j" + j, initial));
    }
    restarts = restarts(plan.size());
    sched.holdBackStripesOf(managers);
    StringBuilder planText = new StringBuilder();
    plan.forEach(
        nodes -> planText.append(" -> ").append(nodes.stream().map(NodeConfig::id).toList()));
    setup.append(" plan ").append(initial.stream().map(NodeConfig::id).toList()).append(planText);
    trace.add("setup", null, setup.toString());
    // each change reaches every JVM within the spread, and the next starts once the window of the
    // last JVM to change has ended, as operations.md asks: a JVM still in its window of one change
    // takes its previous owner's entry for newer, which a JVM already on the next ring may have
    // written there (a node added and removed again: seeds 934061157 and 934062369 of the plan
    // that started the next change within that window)
    long[] startsAt = new long[plan.size()];
    long t = sched.now() + 500_000_000L + r.nextLong(2_000_000_000L);
    for (int c = 0; c < plan.size(); c++) {
      startsAt[c] = t;
      t += spreadNanos + window.toNanos() + r.nextLong(window.toNanos());
      if (c > 0 && hurried[c - 1]) {
        // starts while the previous change's rollout is under way, early enough that its own
        // rollout ends within the window of the previous change's first JVM (operations.md)
        startsAt[c] =
            startsAt[c - 1]
                + hurryDice.nextLong(Math.min(spreadNanos, window.toNanos() - spreadNanos) + 1);
        t = startsAt[c] + spreadNanos + window.toNanos() + r.nextLong(window.toNanos());
      }
    }
    clientsLeft = jvms * clientsPerJvm;
    int perClient = Math.max(1, ops / clientsLeft);
    for (Jvm jvm : fleet) {
      for (int c = 0; c < clientsPerJvm; c++) {
        sched.actor(jvm.name + "c" + c, () -> client(jvm, perClient));
      }
      long[] moments = new long[plan.size()];
      for (int c = 0; c < plan.size(); c++) {
        moments[c] = startsAt[c] + r.nextLong(spreadNanos + 1);
      }
      for (int c = 0; c + 1 < plan.size(); c++) {
        if (hurried[c] && moments[c] >= startsAt[c + 1]) {
          moments[c] = -1; // the next change reached this JVM first: it skips this one
        }
      }
      sched.actor(jvm.name + "m", () -> membership(jvm, plan, moments));
      sched.actor(jvm.name + "s", () -> maintenance(jvm));
    }
    if (Boolean.getBoolean("chash.fleet.drops")) {
      sched.actor("faults", this::dropReplies);
    }
    if (weak.restarts()) {
      sched.at(sched.now() + 1, this::snapshotLoop);
    }
    weak.start(sched, trace, seed, () -> List.copyOf(servers.values()), () -> clientsLeft > 0);
    long nearHits = 0;
    try {
      sched.run();
      for (Jvm jvm : fleet) {
        nearHits += near == null ? 0 : jvm.nearHits();
      }
    } finally {
      managers.forEach(RingCacheManager::close);
    }
    return new Result(seed, opsDone, trace.hash(), violations, setup.toString(), nearHits);
  }

  /**
   * Whether a change may start while the previous one's rollout runs, other than to revert it (on
   * unless {@code -Dchash.fleet.overlaps=false}).
   */
  private static final boolean OVERLAPS =
      Boolean.parseBoolean(System.getProperty("chash.fleet.overlaps", "true"));

  /** The dice of the rollout shapes beyond one change at a time; their own, as the restarts'. */
  private SplittableRandom hurryDice;

  /**
   * Rollouts as fleets really run them (issue 41), from dice of their own: a change that starts
   * while the previous one's rollout is under way (one in four, but not after a change that comes
   * back to an earlier ring, nor when a later change comes back to the ring it makes JVMs skip:
   * outside the guarantee, operations.md), and a change reverted while its rollout runs (one seed
   * in four: the plan ends with the ring before its last change). A JVM that the next change
   * reaches before this one skips this one: it never ran that ring. With {@code
   * -Dchash.fleet.rollouts=false}, changes are one at a time, as operations.md asked before.
   * {@return per change, whether the next starts within its rollout}
   */
  private boolean[] hurried(List<List<NodeConfig>> plan) {
    hurryDice = new SplittableRandom(SimScheduler.mix(seed, 6_000_029));
    if (!Boolean.parseBoolean(System.getProperty("chash.fleet.rollouts", "true"))) {
      return new boolean[plan.size()];
    }
    boolean rollback = hurryDice.nextInt(4) == 0;
    if (rollback) {
      plan.add(plan.size() > 1 ? plan.get(plan.size() - 2) : initial);
      setup.append(" rollback");
    }
    boolean[] hurried = new boolean[plan.size()];
    StringBuilder which = new StringBuilder();
    for (int c = 0; c + 1 < plan.size(); c++) {
      boolean reverted = rollback && c + 2 == plan.size();
      // a change coming back to a ring restores one every JVM ran (a rollback, a node added and
      // removed again), not one some JVMs skipped because the next change started during its
      // rollout; and such a change reaches every JVM before the next starts (operations.md)
      boolean comesBack = plan.get(c).equals(initial) || plan.subList(0, c).contains(plan.get(c));
      boolean skippedRingRestored = plan.subList(c + 1, plan.size()).contains(plan.get(c));
      hurried[c] =
          (hurryDice.nextInt(4) == 0 && OVERLAPS && !skippedRingRestored && !comesBack) || reverted;
      if (hurried[c]) {
        which.append(' ').append(c);
      }
    }
    setup.append(" hurried").append(which.length() == 0 ? " none" : which);
    return hurried;
  }

  /**
   * Which JVM takes which change by a restart (a fresh JVM on the new ring, as a rolling restart
   * ships it) rather than a reconfiguration: one in three, from dice of their own, so that the rest
   * of a seed runs as before; none with {@code -Dchash.fleet.restarts=false}.
   */
  private boolean[][] restarts(int changes) {
    boolean[][] restart = new boolean[jvms][changes];
    if (!Boolean.parseBoolean(System.getProperty("chash.fleet.restarts", "true"))) {
      return restart;
    }
    SplittableRandom dice = new SplittableRandom(SimScheduler.mix(seed, 5_000_011));
    StringBuilder which = new StringBuilder();
    for (int j = 0; j < jvms; j++) {
      for (int c = 0; c < changes; c++) {
        restart[j][c] = dice.nextInt(3) == 0;
        if (restart[j][c]) {
          which.append(" j").append(j).append('@').append(c);
        }
      }
    }
    setup.append(" restarts").append(which.length() == 0 ? " none" : which);
    return restart;
  }

  private void membership(Jvm jvm, List<List<NodeConfig>> plan, long[] moments) {
    SimScheduler.Actor me = sched.current();
    for (int c = 0; c < plan.size() && clientsLeft > 0; c++) {
      if (moments[c] < 0) {
        continue;
      }
      sched.sleepUntil(Math.max(sched.now(), moments[c]));
      if (clientsLeft == 0) {
        return;
      }
      List<String> ids = plan.get(c).stream().map(NodeConfig::id).toList();
      if (restarts[fleet.indexOf(jvm)][c]) {
        // a rolling restart: a fresh JVM on the new ring, told the ring it replaces
        trace.add(me.name, null, "restart on " + ids);
        // a rollback (the change before reverted while its rollout ran) restores the earlier file
        // as it was: its replaces is an older rollout's, long over (a rollback restores a ring
        // every JVM ran, so no change was made during that rollout), and the fresh JVM starts on
        // that ring alone, as the JVMs that never left it run
        jvm.start(config(plan.get(c), replacesOf(plan, c)));
      } else {
        // the same file: a running JVM that missed a change (its moment was skipped) changes
        // through the rings it names as replaced
        trace.add(me.name, null, "reconfigure " + ids);
        jvm.manager.reconfigure(config(plan.get(c), replacesOf(plan, c)));
      }
    }
  }

  /**
   * The rings change {@code c}'s file names as replaced: none for a rollback (the change before
   * reverted while its predecessor's rollout ran), whose file is the earlier one as it was.
   */
  private List<List<NodeConfig>> replacesOf(List<List<NodeConfig>> plan, int c) {
    List<NodeConfig> twoBefore = c < 2 ? initial : plan.get(c - 2);
    boolean revert = c > 0 && hurried[c - 1] && plan.get(c).equals(twoBefore);
    return revert ? List.of() : replaced(plan, c);
  }

  /**
   * The rings change {@code c}'s file names as replaced, newest first: the ring before it, and,
   * while the change before was made during its predecessor's rollout, the ring before that one too
   * (its JVMs may still run), as an operator carries the earlier file's {@code replaces} forward.
   */
  private List<List<NodeConfig>> replaced(List<List<NodeConfig>> plan, int c) {
    List<List<NodeConfig>> rings = new ArrayList<>();
    for (int k = c; k >= 0; k--) {
      rings.add(k == 0 ? initial : plan.get(k - 1));
      if (k == 0 || !hurried[k - 1]) {
        break;
      }
    }
    return rings;
  }

  /** Now and then a server applies requests but drops every other reply for a while. */
  private void dropReplies() {
    SplittableRandom r = sched.current().random;
    while (clientsLeft > 0) {
      sched.sleep(200_000_000 + r.nextLong(2_000_000_000L));
      List<SimServer> all = new ArrayList<>(servers.values());
      if (clientsLeft == 0 || all.isEmpty()) {
        return;
      }
      SimServer s = all.get(r.nextInt(all.size()));
      long d = 5_000_000 + r.nextLong(200_000_000);
      s.dropRepliesUntil = sched.now() + d;
      s.dropNext = false;
      trace.add("faults", null, s.id + " drops every other reply for " + d / 1_000_000 + " ms");
    }
  }

  private void maintenance(Jvm jvm) {
    SplittableRandom r = sched.current().random;
    while (clientsLeft > 0) {
      sched.sleep(50_000_000 + r.nextLong(400_000_000));
      if (clientsLeft == 0) {
        return;
      }
      jvm.manager.failurePolicy().probeDue();
      jvm.manager.failurePolicy().cleanMarks();
      jvm.manager.membership().sweepDue();
    }
  }

  private void client(Jvm jvm, int count) {
    SimScheduler.Actor me = sched.current();
    SplittableRandom r = me.random;
    try {
      for (int i = 0; i < count; i++) {
        double u = r.nextDouble();
        sched.sleep(
            (long)
                    (r.nextInt(4) == 0
                        ? -Math.log(1 - u) * meanThinkNanos * 3.4
                        : -Math.log(1 - u) * meanThinkNanos * 0.2)
                + 1);
        oneOp(jvm, me, r);
        opsDone++;
      }
    } finally {
      clientsLeft--;
    }
  }

  private int pickKey(SplittableRandom r) {
    return r.nextInt(3) == 0 ? r.nextInt(Math.min(keyCount, 3)) : r.nextInt(keyCount);
  }

  private String value(int k, long version) {
    return names[k] + "#" + writes.get(k).get((int) version)[3];
  }

  /** Now and then each server saves a snapshot (an RDB save), which a restart may come back to. */
  private void snapshotLoop() {
    if (clientsLeft == 0) {
      return;
    }
    servers.values().forEach(SimServer::snapshot);
    sched.at(
        sched.now() + 300_000_000L + sched.random.nextLong(1_500_000_000L), this::snapshotLoop);
  }

  private void oneOp(Jvm jvm, SimScheduler.Actor me, SplittableRandom r) {
    int dice = r.nextInt(100);
    int k = pickKey(r);
    String rk = jvm.routingKeys[k];
    me.opKeys = List.of(rk);
    if (dice < 25) {
      long v = bump(k, true);
      weak.maybeEqualBytes(writes.get(k), sameBytes.get(k), v, r);
      trace.add(me.name, rk, "put " + value(k, v) + " begins");
      jvm.typed.put(names[k], value(k, v));
      completed(me, k, v, rk, "put " + value(k, v));
    } else if (dice < 33) {
      long v = bump(k, false);
      trace.add(me.name, rk, "evict " + names[k] + " (v" + v + ") begins");
      jvm.typed.evict(names[k]);
      completed(me, k, v, rk, "evict " + names[k]);
    } else if (dice < 60) {
      boolean sync = dice < 46;
      read(
          jvm,
          me,
          k,
          rk,
          sync ? "get(sync)" : "get(nosync)",
          () -> {
            if (sync) {
              return jvm.typed.get(names[k], key -> load(me, k, rk));
            }
            try {
              return jvm.cache.<String>get(rk, STRING, () -> load(me, k, rk), false, false);
            } catch (Throwable t) {
              throw new IllegalStateException(t);
            }
          });
    } else {
      read(jvm, me, k, rk, "getIfPresent", () -> jvm.typed.getIfPresent(names[k]));
    }
    me.opKeys = List.of();
  }

  private String load(SimScheduler.Actor me, int k, String rk) {
    SplittableRandom r = me.random;
    sched.sleep(r.nextLong(3_000_000));
    long v = db[k];
    long at = ++tick;
    trace.add(me.name, rk, "loader reads v" + v);
    sched.sleep(r.nextLong(2_000_000));
    if (r.nextInt(10) == 0) {
      throw new LoadFailed(); // its lease is given back: the next miss must still be right
    }
    return value(k, v) + "@" + at;
  }

  /** A load that failed, as a database that times out does: the read returns nothing. */
  private static final class LoadFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LoadFailed() {
      super("load failed", null, false, false);
    }
  }

  private static boolean loadFailed(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof LoadFailed) {
        return true;
      }
    }
    return false;
  }

  private long bump(int k, boolean put) {
    long v = ++db[k];
    writes.get(k).add(new long[] {++tick, Long.MAX_VALUE, put ? 1 : 0, v, Long.MAX_VALUE});
    return v;
  }

  private void completed(SimScheduler.Actor me, int k, long v, String rk, String what) {
    sched.afterPossibleJoin();
    sched.opReturned(me.opKeys);
    long[] w = writes.get(k).get((int) v);
    w[1] = ++tick;
    w[4] = sched.now();
    floorBegin[k] = Math.max(floorBegin[k], w[0]);
    trace.add(me.name, rk, what + " done");
  }

  /**
   * The floor of a read that began at {@code at}: the latest begin of a write completed by then.
   */
  private long floorBefore(int k, long at) {
    long f = 0;
    for (long[] w : writes.get(k)) {
      if (w[4] <= at) {
        f = Math.max(f, w[0]);
      }
    }
    return f;
  }

  private interface Read {
    String read();
  }

  private void read(Jvm jvm, SimScheduler.Actor me, int k, String rk, String what, Read op) {
    long f = floorBegin[k];
    long began = sched.now();
    long nearHitsBefore = near == null ? 0 : jvm.nearHits();
    tick++;
    trace.add(me.name, rk, what + " " + names[k] + " begins");
    String got;
    try {
      got = op.read();
    } catch (RuntimeException e) {
      if (!loadFailed(e)) {
        throw e;
      }
      got = null;
    }
    sched.afterPossibleJoin();
    sched.opReturned(me.opKeys);
    trace.add(me.name, rk, what + " " + names[k] + " -> " + got);
    if (got == null) {
      return;
    }
    // a near hit takes no simulated time (no node call) and counts one; within its bound it may
    // miss another JVM's write whose report is still under way
    boolean nearHit = near != null && sched.now() == began && jvm.nearHits() > nearHitsBefore;
    if (nearHit) {
      f = floorBefore(k, began - NEAR_BOUND_NANOS);
      what = what + " (near hit)";
    }
    int hash = got.indexOf('#');
    int loadedAt = got.indexOf('@');
    boolean ok = hash > 0 && got.substring(0, hash).equals(names[k]);
    // a loaded value is also stale once a write that began after its loader read the database
    // completed before the read began: a fill racing a write of another JVM (leases)
    if (ok && loadedAt > 0) {
      ok = f < Long.parseLong(got.substring(loadedAt + 1));
      got = got.substring(0, loadedAt);
    }
    if (ok) {
      // the bytes name a version; a later write of the same bytes may be what was read
      int w = Integer.parseInt(got.substring(hash + 1));
      ok = SimRun.current(writes.get(k), w, f);
      for (int u : sameBytes.get(k).getOrDefault((long) w, List.of())) {
        ok |= SimRun.current(writes.get(k), u, f);
      }
    }
    if (!ok) {
      StringBuilder b = new StringBuilder();
      b.append("seed ")
          .append(seed)
          .append(": ")
          .append(me.name)
          .append(' ')
          .append(what)
          .append(" of ")
          .append(names[k])
          .append(" returned ")
          .append(got)
          .append(", older than a write completed before the read began\n");
      if (trace.keepAll()) {
        for (SimTrace.Entry e : trace.of(rk, 80)) {
          b.append("  ").append(e).append('\n');
        }
      }
      violations.add(b.toString());
    }
  }
}
