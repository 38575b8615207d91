package io.github.chash.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The ways real servers are weaker than the simulation's servers were, each behind a switch of its
 * own, for {@link SimRun} and {@link FleetSimRun} alike (all on: {@code -Dchash.sim.real=true}):
 *
 * <ul>
 *   <li>{@code -Dchash.sim.evictions=true}: each server holds at most a number of entries the seed
 *       draws (sometimes fewer than its share of the keys) and evicts the least recently used
 *       beyond it, values, leases and tombstones alike (Redis {@code maxmemory} with {@code
 *       allkeys-lru}, memcached {@code -m}); and now and then the scheduler evicts an entry drawn
 *       at random.
 *   <li>{@code -Dchash.sim.restarts=true}: now and then a server restarts between two calls, empty
 *       or from one of its older snapshots (an RDB file, a VM snapshot), and no call fails: only
 *       its connections break, and its incarnation id ({@link SimNode#serverRunId}) changes.
 *   <li>{@code -Dchash.sim.byteCompare=true}: conditional calls compare what is stored, not who
 *       stored it: a Redis-like server (half of them) by the stored bytes (the value's, and the
 *       write version chash's Redis node stores with it: {@link SimServer.Compare#BYTES}), a
 *       memcached-like one by its {@code cas} unique.
 *   <li>{@code -Dchash.sim.equalPuts=true}: the workload sometimes puts a value equal to one of the
 *       key's last values again (the same bytes, a different write), which is what exposes ABA.
 * </ul>
 *
 * Each is drawn from streams of its own, so that with every switch off a seed runs as it did before
 * they existed.
 */
record SimWeaknesses(boolean evictions, boolean restarts, boolean byteCompare, boolean equalPuts) {
  /** None: the servers as the simulation had them. */
  static final SimWeaknesses NONE = new SimWeaknesses(false, false, false, false);

  /** Every one. */
  static final SimWeaknesses ALL = new SimWeaknesses(true, true, true, true);

  /**
   * The weaknesses a simulation has on every build: all of them, in the one-JVM simulation and in
   * the fleet simulation alike. (The fleet simulation ran without evictions and restarts until the
   * vouch rule: a previous owner that lost a newer write let an older copy be read; fleet seeds
   * 1003, 1011, 1021, 1025 and 7 more of 300 from 1000.)
   */
  static final SimWeaknesses ONE_JVM = ALL;

  /** See {@link #ONE_JVM}. */
  static final SimWeaknesses FLEET = ALL;

  /**
   * The switches of the system properties, each {@code defaults}' where it is not set ({@code
   * -Dchash.sim.real=true}: all on).
   */
  static SimWeaknesses fromProperties(SimWeaknesses defaults) {
    boolean all = Boolean.getBoolean("chash.sim.real");
    return new SimWeaknesses(
        all || flag("chash.sim.evictions", defaults.evictions),
        all || flag("chash.sim.restarts", defaults.restarts),
        all || flag("chash.sim.byteCompare", defaults.byteCompare),
        all || flag("chash.sim.equalPuts", defaults.equalPuts));
  }

  private static boolean flag(String property, boolean otherwise) {
    String set = System.getProperty(property);
    return set == null ? otherwise : Boolean.parseBoolean(set);
  }

  /** For a run's setup line. */
  String describe() {
    return (evictions ? " evictions" : "")
        + (restarts ? " restarts" : "")
        + (byteCompare ? " byteCompare" : "")
        + (equalPuts ? " equalPuts" : "");
  }

  /** Sets a new server up: its comparison and memory bound, from dice of its own. */
  void configure(SimServer s, long seed, int keyCount) {
    SplittableRandom d = new SplittableRandom(SimScheduler.mix(seed, 5_000_011 + s.id.hashCode()));
    if (byteCompare) {
      s.compare = d.nextBoolean() ? SimServer.Compare.BYTES : SimServer.Compare.CAS;
    }
    if (evictions) {
      // a third of the servers tight: fewer entries than their share of the keys
      s.capacity =
          d.nextInt(3) == 0
              ? 1 + d.nextInt(Math.max(1, keyCount / 4))
              : Math.max(2, keyCount / 3) + d.nextInt(Math.max(1, keyCount));
    }
  }

  /**
   * Starts the run's random evictions and restarts as events of the world, on the servers {@code
   * servers} gives (those that can be restarted), while {@code running}.
   */
  void start(
      SimScheduler sched,
      SimTrace trace,
      long seed,
      Supplier<List<SimServer>> servers,
      BooleanSupplier running) {
    SplittableRandom r = new SplittableRandom(SimScheduler.mix(seed, 6_000_037));
    if (evictions) {
      double perSecond = r.nextInt(3) == 0 ? 0 : 0.2 + r.nextDouble() * 5;
      loop(sched, r, perSecond, running, () -> evictOne(r, servers.get()));
    }
    if (restarts) {
      double perSecond = 0.05 + r.nextDouble() * 0.5;
      loop(sched, r, perSecond, running, () -> restartOne(trace, r, servers.get()));
    }
  }

  private static void loop(
      SimScheduler sched,
      SplittableRandom r,
      double perSecond,
      BooleanSupplier running,
      Runnable what) {
    if (perSecond == 0 || !running.getAsBoolean()) {
      return;
    }
    long next = (long) (-Math.log(1 - r.nextDouble()) * 1e9 / perSecond) + 1;
    sched.at(
        sched.now() + next,
        () -> {
          if (running.getAsBoolean()) {
            what.run();
            loop(sched, r, perSecond, running, what);
          }
        });
  }

  private static void evictOne(SplittableRandom r, List<SimServer> all) {
    if (!all.isEmpty()) {
      all.get(r.nextInt(all.size())).evictAny(r);
    }
  }

  private static void restartOne(SimTrace trace, SplittableRandom r, List<SimServer> all) {
    if (all.isEmpty()) {
      return;
    }
    SimServer s = all.get(r.nextInt(all.size()));
    String what;
    if (r.nextInt(3) == 0 || !s.persists()) {
      // memcached keeps nothing across a restart
      s.restartEmpty();
      what = "restarts empty";
    } else {
      what = "restarts from an old snapshot (" + s.restart(r.nextInt()) + ")";
    }
    trace.add(
        "fault", null, "server " + s.id + " " + what + ", no call failing (" + s.runId() + ")");
  }

  /**
   * With {@code equalPuts}, one put in six writes the bytes of one of the key's last three puts
   * again: a different write of the same value, as a real workload has (a flag set back).
   *
   * @param history the key's writes ({@code [.., .., 1 for a put, bytes]} each)
   * @param sameBytes the key's writes by the bytes they wrote
   * @param v the write being made
   */
  void maybeEqualBytes(
      List<long[]> history, Map<Long, List<Integer>> sameBytes, long v, SplittableRandom r) {
    if (!equalPuts || r.nextInt(6) != 0) {
      return;
    }
    int seen = 0;
    for (int u = (int) v - 1; u > 0 && seen < 3; u--) {
      if (history.get(u)[2] == 1 && r.nextInt(3 - seen++) == 0) {
        history.get((int) v)[3] = history.get(u)[3];
        sameBytes.computeIfAbsent(history.get(u)[3], b -> new ArrayList<>()).add((int) v);
        return;
      }
    }
  }
}
