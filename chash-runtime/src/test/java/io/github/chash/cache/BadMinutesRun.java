package io.github.chash.cache;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
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
 * One seed of a large fleet on a steady ring, in which some JVMs are always having a bad minute
 * (issue 42): 50 JVMs over 10 simulated servers, each JVM a real {@link RingCacheManager} with the
 * default failover settings, and at any moment 1-5% of them in trouble of their own: paused
 * (stop-the-world pauses of 1-8 s), starved of CPU (every request waits up to three node timeouts
 * before it leaves), or cut off from one server. The servers are fine throughout; what the run
 * measures is what one JVM's trouble costs the others.
 *
 * <p>The same seed runs without the faults ({@code faults = false}) for the hit rate to compare
 * against. The checker holds the healthy JVMs to the cross-JVM rule: a read by a JVM that is fine
 * (not in a bad minute, no node ejected, no copy marked) returns nothing older than a write
 * completed before the read began. A write by a JVM in trouble counts as completed only once that
 * JVM is fine again: until then its node calls may not have landed, and the others may read the
 * value before it (operations.md, "What stays per JVM"); reads by a JVM in trouble are counted, and
 * their stale reads reported, but not held to the rule.
 */
final class BadMinutesRun {
  static final int JVMS = 50;
  static final int SERVERS = 10;

  /** How long a request may wait in a JVM's buffers before it leaves (an event-loop turn). */
  private static final long FLUSH_DELAY = 1_000_000L;

  private static final long BAD_MINUTE = 60_000_000_000L;

  /** What one run measured. */
  record Result(
      long seed,
      boolean faults,
      long reads,
      long hits,
      long healthyReads,
      long healthyHits,
      long troubledStale,
      int badMinutes,
      double troubledShare,
      List<String> violations) {
    double hitRate() {
      return reads == 0 ? 0 : (double) hits / reads;
    }

    double healthyHitRate() {
      return healthyReads == 0 ? 0 : (double) healthyHits / healthyReads;
    }
  }

  private enum Trouble {
    PAUSED,
    STARVED,
    CUT_OFF
  }

  private final long seed;
  private final boolean faults;
  private final long runNanos;
  private final SimScheduler sched;
  private final SimTrace trace;
  private final Map<String, SimServer> servers = new TreeMap<>();
  private final List<Jvm> fleet = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private final int keyCount = 1_000;
  private final long[] db = new long[keyCount];

  /** Per key, the writes counted as completed: {version, when}. */
  private final List<List<long[]>> completed = new ArrayList<>();

  private long reads;
  private long hits;
  private long healthyReads;
  private long healthyHits;
  private long troubledStale;
  private int badMinutes;
  private long troubledNanos;
  private int clientsLeft;

  /** One JVM of the fleet and its own trouble, which every request it sends passes. */
  private final class Jvm implements SimNode.Link {
    final String name;
    final RingCacheManager manager;
    final TypedCache<Object, String> users;
    Trouble trouble;
    long troubleEnds;
    String cutFrom;

    /** The bad minute's stop-the-world pauses, {start, end} in sim nanos. */
    List<long[]> pauses = List.of();

    final String[] routingKeys = new String[keyCount];

    /** Writes made while this JVM was not fine, completed once it is: {key, version}. */
    final List<long[]> pending = new ArrayList<>();

    Jvm(String name, ChashConfig config) {
      this.name = name;
      manager = new SimNode.Factory(sched, trace, BadMinutesRun.this::server, this).manager(config);
      users = manager.cache("users").typed(String.class);
      InterceptedCache cache = InterceptedCache.of(manager.cache("users"));
      for (int k = 0; k < keyCount; k++) {
        routingKeys[k] = cache.routingKey("k" + k, "sim");
      }
    }

    /**
     * When the pause under way at {@code at} ends; {@code at} if none is. A request made just
     * before a pause began is still in this JVM's buffers ({@link #FLUSH_DELAY}): it leaves when
     * the pause ends, after its caller's timeout has passed.
     */
    long pausedUntil(long at) {
      for (long[] p : pauses) {
        if (p[0] <= at && at < p[1]) {
          return p[1];
        }
      }
      return at;
    }

    boolean inBadMinute(long now) {
      return trouble != null && now < troubleEnds;
    }

    /** Fine: no bad minute, and nothing its trouble left (a node out, a copy marked). */
    boolean fine(long now) {
      if (inBadMinute(now)) {
        return false;
      }
      for (NodeSlot slot : manager.membership().allSlots()) {
        if (slot.ejected || !slot.marks.isEmpty()) {
          return false;
        }
      }
      return true;
    }

    @Override
    public long delayNanos(String server, long now) {
      if (!inBadMinute(now)) {
        return 0;
      }
      return switch (trouble) {
        case PAUSED -> {
          long leaves = pausedUntil(now + FLUSH_DELAY);
          yield leaves == now + FLUSH_DELAY ? 0 : leaves - now;
        }
        case STARVED -> sched.current().random.nextLong(300_000_000L);
        case CUT_OFF -> server.equals(cutFrom) ? CUT : 0;
      };
    }
  }

  BadMinutesRun(long seed, boolean faults, Duration length) {
    this.seed = seed;
    this.faults = faults;
    this.runNanos = length.toNanos();
    this.sched = new SimScheduler(seed);
    this.trace = new SimTrace(sched, false);
    for (int k = 0; k < keyCount; k++) {
      completed.add(new ArrayList<>());
    }
  }

  private SimServer server(String id) {
    return servers.computeIfAbsent(id, i -> new SimServer(i, sched, trace, true, true));
  }

  private ChashConfig config() {
    ChashConfig.Builder b =
        ChashConfig.builder()
            .ring(RingSettings.of(Algorithm.KETAMA))
            .failover(FailoverConfig.defaults())
            .cache(new CacheConfig("users", Duration.ofMinutes(30)));
    for (int i = 0; i < SERVERS; i++) {
      b.node(new NodeConfig("n" + i, NodeType.REDIS, 1, 0, "redis://127.0.0.1:" + (17000 + i)));
    }
    return b.build();
  }

  Result run() {
    ChashConfig config = config();
    for (int j = 0; j < JVMS; j++) {
      fleet.add(new Jvm("j" + j, config));
    }
    sched.holdBackStripesOf(fleet.stream().map(j -> j.manager).toList());
    clientsLeft = fleet.size();
    for (Jvm jvm : fleet) {
      sched.actor(jvm.name + "c", () -> client(jvm));
      sched.actor(jvm.name + "s", () -> maintenance(jvm));
    }
    if (faults) {
      SplittableRandom dice = new SplittableRandom(SimScheduler.mix(seed, 7_000_003));
      double share = 0.01 + 0.04 * dice.nextDouble();
      sched.actor("faults", () -> badMinutes(dice, share * JVMS / 60.0));
    }
    try {
      sched.run();
    } finally {
      fleet.forEach(j -> j.manager.close());
    }
    return new Result(
        seed,
        faults,
        reads,
        hits,
        healthyReads,
        healthyHits,
        troubledStale,
        badMinutes,
        faults ? troubledNanos / (double) (runNanos * JVMS) : 0,
        violations);
  }

  /**
   * Starts bad minutes at random moments, on JVMs that are fine, at the rate that keeps the drawn
   * share of the fleet in trouble.
   */
  private void badMinutes(SplittableRandom dice, double perSecond) {
    long end = sched.now() + runNanos;
    while (true) {
      sched.sleep((long) (-Math.log(1 - dice.nextDouble()) / perSecond * 1e9));
      long now = sched.now();
      if (now >= end - BAD_MINUTE) {
        return;
      }
      List<Jvm> fine = fleet.stream().filter(j -> !j.inBadMinute(now)).toList();
      Jvm jvm = fine.get(dice.nextInt(fine.size()));
      jvm.trouble = Trouble.values()[dice.nextInt(Trouble.values().length)];
      jvm.troubleEnds = now + BAD_MINUTE;
      jvm.cutFrom = "n" + dice.nextInt(SERVERS);
      badMinutes++;
      troubledNanos += BAD_MINUTE;
      if (jvm.trouble == Trouble.PAUSED) {
        jvm.pauses = pauses(dice, now, jvm.troubleEnds);
      }
    }
  }

  /** Stop-the-world pauses of 1-8 s, 1-10 s apart, from {@code from} until {@code to}. */
  private static List<long[]> pauses(SplittableRandom dice, long from, long to) {
    List<long[]> pauses = new ArrayList<>();
    for (long t = from; t < to; ) {
      long end = Math.min(to, t + 1_000_000_000L + dice.nextLong(7_000_000_000L));
      pauses.add(new long[] {t, end});
      t = end + 1_000_000_000L + dice.nextLong(9_000_000_000L);
    }
    return pauses;
  }

  private void maintenance(Jvm jvm) {
    SplittableRandom r = sched.current().random;
    while (clientsLeft > 0) {
      sched.sleep(50_000_000 + r.nextLong(400_000_000));
      sched.sleepUntil(jvm.pausedUntil(sched.now()));
      jvm.manager.failurePolicy().probeDue();
      jvm.manager.failurePolicy().cleanMarks();
      long now = sched.now();
      if (!jvm.pending.isEmpty() && jvm.fine(now)) {
        for (long[] w : jvm.pending) {
          completed.get((int) w[0]).add(new long[] {w[1], now});
        }
        jvm.pending.clear();
      }
    }
  }

  private void client(Jvm jvm) {
    SimScheduler.Actor me = sched.current();
    SplittableRandom r = me.random;
    long end = sched.now() + runNanos;
    try {
      while (sched.now() < end) {
        sched.sleep((long) (-Math.log(1 - r.nextDouble()) * 400_000_000L) + 1);
        // a paused JVM serves nothing: its callers wait with it
        sched.sleepUntil(jvm.pausedUntil(sched.now()));
        int k = (int) (keyCount * Math.pow(r.nextDouble(), 2));
        me.opKeys = List.of(jvm.routingKeys[k]);
        int dice = r.nextInt(100);
        if (dice < 4) {
          write(jvm, k, true);
        } else if (dice < 6) {
          write(jvm, k, false);
        } else {
          read(jvm, k);
        }
        me.opKeys = List.of();
      }
    } finally {
      clientsLeft--;
    }
  }

  private void write(Jvm jvm, int k, boolean put) {
    long v = ++db[k];
    boolean fineBefore = jvm.fine(sched.now());
    if (put) {
      jvm.users.put("k" + k, "k" + k + "#" + v);
    } else {
      jvm.users.evict("k" + k);
    }
    sched.afterPossibleJoin();
    sched.opReturned(sched.current().opKeys);
    long now = sched.now();
    if (fineBefore && jvm.fine(now)) {
      completed.get(k).add(new long[] {v, now});
    } else {
      jvm.pending.add(new long[] {k, v});
    }
  }

  private void read(Jvm jvm, int k) {
    long began = sched.now();
    boolean fineBefore = jvm.fine(began);
    long floor = 0;
    for (long[] w : completed.get(k)) {
      if (w[1] <= began) {
        floor = Math.max(floor, w[0]);
      }
    }
    boolean[] loaded = {false};
    String got =
        jvm.users.get(
            "k" + k,
            key -> {
              loaded[0] = true;
              sched.sleep(1_000_000 + sched.current().random.nextLong(4_000_000));
              return "k" + k + "#" + db[k];
            });
    sched.afterPossibleJoin();
    sched.opReturned(sched.current().opKeys);
    boolean healthy = fineBefore && jvm.fine(sched.now());
    reads++;
    hits += loaded[0] ? 0 : 1;
    if (healthy) {
      healthyReads++;
      healthyHits += loaded[0] ? 0 : 1;
    }
    long version = Long.parseLong(got.substring(got.indexOf('#') + 1));
    if (version < floor) {
      if (!healthy) {
        troubledStale++;
      } else if (violations.size() < 20) {
        violations.add(
            String.format(
                "seed %d: %s read k%d at %.3fs: v%d, older than v%d completed before",
                seed, jvm.name, k, began / 1e9, version, floor));
      } else {
        violations.add("");
      }
    }
  }
}
