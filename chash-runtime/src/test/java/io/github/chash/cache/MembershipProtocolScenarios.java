package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.KeyLayout;
import io.github.chash.config.NodeConfig;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.node.ClientStalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The membership protocol against shared servers, each scenario asserting the promise a caller
 * sees: within one JVM a read returns the last completed write of its key, or a miss; and a node
 * that leaves and comes back costs neither hits, connections nor call time. Four servers (node ids
 * in {@link ScenarioFleet#nodeIds()} order, the fourth the one that comes and goes); the manager
 * runs on a clock the test moves, its probes and leftover sweeps driven by hand ({@link
 * ManagerHooks}), so every step happens in the order the scenario says. One subclass per remote
 * node type on real servers (the {@code ProtocolScenariosIT}s), and {@link
 * SimProtocolScenariosTest} on simulated ones, which needs no server installed; the numbers are
 * printed, so a run can be quoted.
 */
public abstract class MembershipProtocolScenarios {
  /** The migration window: never passes unless the test moves the clock. */
  protected static final Duration WINDOW = Duration.ofMinutes(5);

  protected static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  protected static final Duration TIMEOUT = Duration.ofMillis(100);
  protected static final int FAILURE_LIMIT = 3;

  protected static final String FAILOVER =
      "{ failureLimit: "
          + FAILURE_LIMIT
          + ", retryAfter: 1s, timeout: "
          + TIMEOUT.toMillis()
          + "ms, onRejoin: flush }";

  private static final ValueType STRING = ValueType.of(String.class);
  private static final int KEYS = 2000;
  private static final int FLIPS = 20;

  /** {@return four servers, started and emptied before each test by the subclass} */
  protected abstract ScenarioFleet fleet();

  /**
   * {@return how many client connections the node's server has open now} (the test's own connection
   * that asks may count: only differences are used)
   */
  protected abstract int serverConnections(String nodeId);

  /** {@return the factory of the servers' nodes (wrapped by the tests that hook a node's calls)} */
  protected abstract CacheNodeFactory nodeFactory();

  /**
   * {@return a manager of the configuration on {@code clock}, probes and sweeps driven by hand} Its
   * nodes are the type's service-loaded factory's ({@link ManagerHooks#manualManager}); a subclass
   * whose node type has none overrides this.
   */
  protected ShardedCacheManager manualManager(ChashConfig config, ManagerHooks.Clock clock) {
    return ManagerHooks.manualManager(config, clock);
  }

  protected final ChashConfig config(List<String> ids) {
    return config(ids, KeyLayout.PREFIXED);
  }

  /** The servers' nodes, cache {@code users} in the given key layout, {@link #FAILOVER}. */
  protected final ChashConfig config(List<String> ids, KeyLayout layout) {
    return ChashConfigs.parse(
        fleet().nodesYaml(ids)
            + "caches:\n  users: "
            + fleet().users(layout)
            + "\n"
            + "failover: "
            + FAILOVER
            + "\nmigration: { window: "
            + WINDOW.toMinutes()
            + "m }\n",
        "chash.yaml");
  }

  protected final List<String> first(int n) {
    return fleet().nodeIds().subList(0, n);
  }

  /** The node that comes and goes. */
  protected final String fourth() {
    return fleet().nodeIds().get(3);
  }

  protected static List<String> keys(InterceptedCache users, int n) {
    List<String> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(users.routingKey(i, "test"));
    }
    return keys;
  }

  protected static List<String> ownedBy(ShardedCacheManager manager, List<String> keys, String id) {
    return keys.stream().filter(k -> RingKeys.owner(manager, k).equals(id)).toList();
  }

  /**
   * Two managers standing for two JVMs of a fleet during a rollout, on a manual clock: the older
   * still on three nodes, the newer on four within its window; {@code newerNodes} makes the newer
   * one's nodes (to hook one of them).
   */
  protected final class Rollout implements AutoCloseable {
    final ManagerHooks.Clock clock = new ManagerHooks.Clock();
    final ShardedCacheManager older;
    final ShardedCacheManager newer;
    final InterceptedCache olderUsers;
    final InterceptedCache newerUsers;

    Rollout() {
      this(nodeFactory());
    }

    Rollout(CacheNodeFactory newerNodes) {
      older = manualManager(config(first(3)), clock);
      newer = ManagerHooks.manualManager(config(first(3)), clock, newerNodes);
      newer.addNode(config(first(4)).nodes().get(3));
      olderUsers = InterceptedCache.of(older.cache("users"));
      newerUsers = InterceptedCache.of(newer.cache("users"));
    }

    /** {@return the keys that moved to the fourth node} */
    List<String> moved() {
      return ownedBy(newer, keys(newerUsers, KEYS), fourth());
    }

    /** {@return the id of the key's owner on three nodes: its previous owner on four} */
    String previousOwner(String key) {
      return RingKeys.owner(older, key);
    }

    @Override
    public void close() {
      newer.close();
      older.close();
    }
  }

  /** What reads of keys whose last completed write was {@code expected} returned. */
  protected record Reads(int keys, int expected, int misses, int stale, List<String> samples) {
    static Reads of(InterceptedCache users, List<String> keys, String expected, String old) {
      int ok = 0;
      int misses = 0;
      int stale = 0;
      List<String> samples = new ArrayList<>();
      for (String key : keys) {
        Object got = users.getIfPresent(key, STRING);
        if (got == null) {
          misses++;
        } else if (got.equals(expected)) {
          ok++;
        } else {
          stale++;
          if (samples.size() < 3) {
            samples.add(key + " read " + got + (got.equals(old) ? " (the old value)" : ""));
          }
        }
      }
      return new Reads(keys.size(), ok, misses, stale, samples);
    }

    @Override
    public String toString() {
      return String.format(
          "%d keys: %d read the last write, %d missed, %d stale %s",
          keys, expected, misses, stale, samples);
    }
  }

  /**
   * A key moves to a new node and back: 2,000 keys written (v1) on three nodes, a fourth added, its
   * migration window passes and the leftover sweep runs, v2 is written for the keys that moved to
   * it, and it is removed again. The moved keys are back on their first owners: a read returns v2
   * or misses, never v1 (what a sweep that could not delete the leftovers would serve). A verbatim
   * cache's sweep never deletes (the keys may be another application's): its previous ring stays
   * until the longest TTL written has passed, and the reads must still be right.
   */
  @ParameterizedTest(name = "{0} keys")
  @EnumSource(KeyLayout.class)
  void keyMovesAwayAndBack_afterTheSweep_readsTheNewValueOrMiss(KeyLayout layout) {
    ManagerHooks.Clock clock = new ManagerHooks.Clock();
    ChashConfig four = config(first(4), layout);
    try (ShardedCacheManager manager = manualManager(config(first(3), layout), clock)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = keys(users, KEYS);
      keys.forEach(key -> users.put(key, "v1"));

      manager.addNode(four.nodes().get(3));
      List<String> moved = ownedBy(manager, keys, fourth());
      clock.advance(WINDOW.plusSeconds(1));
      ManagerHooks.sweep(manager);
      moved.forEach(key -> users.put(key, "v2"));
      manager.removeNode(fourth());

      Reads reads = Reads.of(users, moved, "v2", "v1");
      System.out.printf(
          "%n=== %s, %s keys: a key moves away and back after the sweep; moved keys: %s%n",
          getClass().getSimpleName(), layout, reads);
      assertThat(reads.stale).as("moved keys read with an older value than v2").isZero();
    }
  }

  /**
   * The leftover sweep runs while the new owner is ejected: 2,000 keys written (v1) on three nodes,
   * a fourth added, its window passes, it freezes and is ejected, the sweep runs, it thaws and is
   * readmitted (emptied), v2 is written for the keys that moved to it, and it is removed. A read of
   * a moved key returns v2 or misses, never v1.
   */
  @ParameterizedTest(name = "{0} keys")
  @EnumSource(KeyLayout.class)
  void sweepWhileTheNewOwnerIsEjected_thenTheKeysMoveBack_readsTheNewValueOrMiss(KeyLayout layout) {
    ManagerHooks.Clock clock = new ManagerHooks.Clock();
    ChashConfig four = config(first(4), layout);
    ScenarioServer server = fleet().server(fourth());
    try (ShardedCacheManager manager = manualManager(config(first(3), layout), clock)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = keys(users, KEYS);
      keys.forEach(key -> users.put(key, "v1"));

      manager.addNode(four.nodes().get(3));
      List<String> moved = ownedBy(manager, keys, fourth());
      clock.advance(WINDOW.plusSeconds(1));
      server.pause();
      try {
        for (int i = 0; i < FAILURE_LIMIT * 3 && RingKeys.isLive(manager, fourth()); i++) {
          users.getIfPresent(moved.get(i), STRING);
        }
        assertThat(RingKeys.isLive(manager, fourth())).as("%s ejected", fourth()).isFalse();
        ManagerHooks.sweep(manager);
      } finally {
        server.resume();
      }
      clock.advance(RETRY_AFTER.plusSeconds(1));
      ManagerHooks.probe(manager);
      assertThat(RingKeys.isLive(manager, fourth())).as("%s readmitted", fourth()).isTrue();
      moved.forEach(key -> users.put(key, "v2"));
      manager.removeNode(fourth());

      Reads reads = Reads.of(users, moved, "v2", "v1");
      System.out.printf(
          "%n=== %s, %s keys: the sweep runs while the new owner is ejected, then the keys move"
              + " back; moved keys: %s%n",
          getClass().getSimpleName(), layout, reads);
      assertThat(reads.stale).as("moved keys read with an older value than v2").isZero();
    }
  }

  /** Removes and re-adds the fourth node {@link #FLIPS} times, all within its window. */
  private void flip(ShardedCacheManager manager, boolean wholeConfig) {
    ChashConfig three = config(first(3));
    ChashConfig four = config(first(4));
    NodeConfig node = four.nodes().get(3);
    for (int i = 0; i < FLIPS; i++) {
      boolean remove = i % 2 == 0;
      if (wholeConfig) {
        manager.reconfigure(remove ? three : four);
      } else if (remove) {
        manager.removeNode(fourth());
      } else {
        manager.addNode(node);
      }
    }
  }

  /**
   * A node removed and re-added 20 times within its migration window (it ends in the ring): a put
   * of its keys then a get hits, 500 of 500; the manager keeps at most two previous rings, reaches
   * at most five node instances, and holds at most two nodes' worth of connections to the server.
   */
  @ParameterizedTest(name = "through {0}")
  @ValueSource(strings = {"addNode/removeNode", "reconfigure"})
  void nodeRemovedAndReAddedWithinItsWindow_putThenGetHits_connectionsStayBounded(String how) {
    ManagerHooks.Clock clock = new ManagerHooks.Clock();
    String id = fourth();
    int before = serverConnections(id);
    try (ShardedCacheManager manager = manualManager(config(first(4)), clock)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      int perNode = serverConnections(id) - before;
      flip(manager, how.equals("reconfigure"));
      List<String> keys = RingKeys.keysOwnedBy(manager, users, id, 500);
      long errorsBefore = users.stats().errorCount();
      int hits = 0;
      for (String key : keys) {
        users.put(key, "v:" + key);
        hits += ("v:" + key).equals(users.getIfPresent(key, STRING)) ? 1 : 0;
      }
      int connections = serverConnections(id) - before;
      int priors = ManagerHooks.priors(manager);
      int reachable = ManagerHooks.reachableNodes(manager);
      System.out.printf(
          "%n=== %s: %s removed and re-added %d times within its window (through %s):"
              + " put then get hits %d of %d; previous rings %d, node instances reached %d,"
              + " connections to %s %d (one node: %d)%n",
          getClass().getSimpleName(),
          id,
          FLIPS / 2,
          how,
          hits,
          keys.size(),
          priors,
          reachable,
          id,
          connections,
          perNode);
      // a call that failed (a timeout on a loaded machine) is a miss; every other one must hit
      long failed = users.stats().errorCount() - errorsBefore;
      assertThat(hits + failed)
          .as("puts then gets of %s's keys that hit, with %d failed calls", id, failed)
          .isGreaterThanOrEqualTo(keys.size());
      assertThat(failed).as("failed calls").isLessThan(keys.size() / 10);
      assertThat(priors).as("previous rings kept").isLessThanOrEqualTo(2);
      assertThat(reachable).as("node instances reached").isLessThanOrEqualTo(5);
      assertThat(connections)
          .as("connections to %s (one node instance holds %d)", id, perNode)
          .isLessThanOrEqualTo(2 * Math.max(1, perNode));
    }
  }

  /**
   * A frozen server behind such a chain: after the 20 flips the fourth node is removed (so it is a
   * previous owner of its keys only) and its server freezes; 8 threads then read (through a loader)
   * and write 1,000 keys, 150 calls each. No call waits for the frozen server twice (its node
   * errors are at most one per thread); the slowest call is printed.
   */
  @Test
  void frozenPreviousOwnerBehindAChain_noCallWaitsForItTwice() throws Exception {
    ManagerHooks.Clock clock = new ManagerHooks.Clock();
    String id = fourth();
    ScenarioServer server = fleet().server(id);
    int threads = 8;
    int callsEach = 150;
    try (ShardedCacheManager manager = manualManager(config(first(4)), clock)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      flip(manager, false);
      List<String> keys = keys(users, 1000);
      keys.forEach(key -> users.put(key, "v:" + key));
      manager.removeNode(id);
      int priors = ManagerHooks.priors(manager);
      int reachable = ManagerHooks.reachableNodes(manager);
      long errorsBefore = manager.cacheStats().get("users").errorCount();

      Queue<String> thrown = new ConcurrentLinkedQueue<>();
      AtomicLong slowest = new AtomicLong();
      AtomicLong slowestAwake = new AtomicLong();
      AtomicLong calls = new AtomicLong();
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> callers = new ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      for (int t = 0; t < threads; t++) {
        SplittableRandom random = new SplittableRandom(t);
        Thread caller =
            new Thread(
                () -> {
                  try {
                    if (!go.await(30, TimeUnit.SECONDS)) {
                      return;
                    }
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int i = 0; i < callsEach && System.nanoTime() < deadline; i++) {
                    String key = keys.get(random.nextInt(keys.size()));
                    long stalledBefore = ClientStalls.stalledNanos();
                    long start = System.nanoTime();
                    try {
                      if (random.nextInt(5) == 0) {
                        users.put(key, "v:" + key);
                      } else {
                        users.get(key, STRING, () -> "v:" + key, false, false);
                      }
                    } catch (Throwable e) {
                      thrown.add(e.toString());
                    }
                    long took = System.nanoTime() - start;
                    slowest.accumulateAndGet(took, Math::max);
                    long stalled = ClientStalls.stalledNanos() - stalledBefore;
                    slowestAwake.accumulateAndGet(took - stalled, Math::max);
                    calls.incrementAndGet();
                  }
                },
                "caller-" + t);
        callers.add(caller);
        caller.start();
      }
      try {
        server.pause();
        go.countDown();
        for (Thread caller : callers) {
          caller.join(TimeUnit.SECONDS.toMillis(90));
        }
      } finally {
        server.resume();
      }
      long errors = manager.cacheStats().get("users").errorCount() - errorsBefore;
      System.out.printf(
          "%n=== %s: %s frozen as the previous owner behind %d flips (previous rings %d, node"
              + " instances reached %d): %d threads, %d calls, slowest call %.1f ms, of it awake"
              + " (not stalled) at most %.1f ms (timeout %d ms), node errors %d, caller exceptions"
              + " %d%n",
          getClass().getSimpleName(),
          id,
          FLIPS,
          priors,
          reachable,
          threads,
          calls.get(),
          slowest.get() / 1e6,
          slowestAwake.get() / 1e6,
          TIMEOUT.toMillis(),
          errors,
          thrown.size());
      assertThat(thrown).as("exceptions that reached callers").isEmpty();
      // No call waits for the frozen server twice: each thread meets it once, when it does not yet
      // know it failed (before the fix: 90 node errors, calls of 1,213-1,326 ms). The slowest call
      // is printed, not asserted (timings are not asserted in tests), with the part of it this JVM
      // was awake (ClientStalls): 102-108 ms on Redis and 104-112 ms on memcached in 20 runs.
      assertThat(errors).as("node errors: one per thread at most").isLessThanOrEqualTo(threads);
    }
  }

  /**
   * Two managers stand for two JVMs of a fleet, one still on three nodes, the other on four within
   * its window (found by the fleet simulation, seed 4246457695). A key moved to the fourth node:
   * the newer JVM's read copied the older one's v1 there. The older JVM evicts the key (a tombstone
   * at its previous owner) and starts a load, whose lease replaces the tombstone while the loader
   * waits. The newer JVM's read through a loader must not return v1, which that evict completed
   * after: it loads. Before the fix, its sync load's second look read the target alone and returned
   * v1.
   */
  @Test
  void olderRingsLeaseOverItsEvict_newerRingsSyncLoadDoesNotReadTheMovedCopy() throws Throwable {
    Queue<Throwable> thrown = new ConcurrentLinkedQueue<>();
    try (Rollout fleet = new Rollout()) {
      InterceptedCache olderUsers = fleet.olderUsers;
      InterceptedCache newerUsers = fleet.newerUsers;
      String key = fleet.moved().get(0);
      olderUsers.put(key, "v1");
      assertThat(newerUsers.getIfPresent(key, STRING)).as("the newer JVM's read").isEqualTo("v1");
      olderUsers.evict(key);

      CountDownLatch leased = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Thread olderLoad =
          new Thread(
              () -> {
                try {
                  olderUsers.get(
                      key,
                      STRING,
                      () -> {
                        leased.countDown();
                        release.await(30, TimeUnit.SECONDS);
                        return "loaded in the older JVM";
                      },
                      true,
                      false);
                } catch (Throwable e) {
                  thrown.add(e);
                }
              },
              "older-load");
      olderLoad.start();
      Object got;
      try {
        assertThat(leased.await(30, TimeUnit.SECONDS)).as("the older JVM's load began").isTrue();
        got = newerUsers.get(key, STRING, () -> "loaded in the newer JVM", true, false);
      } finally {
        release.countDown();
        olderLoad.join(TimeUnit.SECONDS.toMillis(30));
      }
      System.out.printf(
          "%n=== %s: a lease over an older ring's evict; the newer JVM's sync read returned %s%n",
          getClass().getSimpleName(), got);
      assertThat(thrown).as("exceptions that reached callers").isEmpty();
      assertThat(got).as("the read after the evict completed").isEqualTo("loaded in the newer JVM");
    }
  }

  /**
   * Three managers stand for three JVMs of a fleet: one still on three nodes, two on four within
   * their window (found by the fleet simulation, seed 354154235). The older JVM wrote v1 on a key's
   * previous owner; a newer JVM puts v2, and between v2's landing on the fourth node and its vouch
   * on the previous owner (a {@link HookedNode} runs the other newer JVM's read there) the read
   * finds v2 on the target and, without the fence, v1 on the previous owner. Once the put has
   * completed, no read returns v1. Before the fix, that read took v1 for an older ring's newer
   * write and moved it over v2, where every later read found it.
   */
  @Test
  void readBetweenANewerRingsPutAndItsVouchOnThePreviousOwner_neverRestoresTheOlderValue() {
    String key;
    String previousOwner;
    try (Rollout probe = new Rollout()) {
      key = probe.moved().get(0);
      previousOwner = probe.previousOwner(key);
    }
    HookedNode[] hooked = new HookedNode[1];
    try (Rollout fleet =
            new Rollout(
                HookedNode.wrapping(nodeFactory(), previousOwner, made -> hooked[0] = made));
        ShardedCacheManager reader = manualManager(config(first(3)), fleet.clock)) {
      reader.addNode(config(first(4)).nodes().get(3));
      InterceptedCache olderUsers = fleet.olderUsers;
      InterceptedCache writerUsers = fleet.newerUsers;
      InterceptedCache readerUsers = InterceptedCache.of(reader.cache("users"));
      olderUsers.put(key, "v1");
      Object[] between = new Object[1];
      boolean[] ran = new boolean[1];
      hooked[0].onceBefore(
          "vouch",
          () -> {
            ran[0] = true;
            between[0] = readerUsers.getIfPresent(key, STRING);
          });
      writerUsers.put(key, "v2");
      Object after = readerUsers.getIfPresent(key, STRING);
      Object later = readerUsers.getIfPresent(key, STRING);
      System.out.printf(
          "%n=== %s: a read between a newer ring's put (v2) and its vouch on the previous"
              + " owner returned %s; after the put: %s, then %s%n",
          getClass().getSimpleName(), between[0], after, later);
      assertThat(ran[0]).as("the read between the put's two steps ran").isTrue();
      assertThat(after).as("a read after v2's put").isNotEqualTo("v1");
      assertThat(later).as("the next read").isNotEqualTo("v1");
    }
  }

  /**
   * Two managers stand for two JVMs, one on three nodes, one on four within its window; the key's
   * previous owner {@code A} (its owner on three nodes) briefly freezes. The older JVM's put of v2
   * times out there but is applied when {@code A} thaws: its outcome is unknown, so the older JVM
   * marks the key and later cleans that mark up. The newer JVM, which had moved v1 to the fourth
   * node, must not read v1 after that: the clean-up leaves the window's tombstone on {@code A}, not
   * nothing (found by the fleet simulation with dropped replies, seed 324114176). Before, the
   * clean-up deleted v2 and the newer JVM read v1 on its target.
   */
  @Test
  void olderRingsWriteWhoseReplyTimedOut_itsMarkCleanUp_leavesNoOlderValueReadable() {
    try (Rollout fleet = new Rollout()) {
      ShardedCacheManager older = fleet.older;
      InterceptedCache olderUsers = fleet.olderUsers;
      InterceptedCache newerUsers = fleet.newerUsers;
      String key = fleet.moved().get(0);
      ScenarioServer previousOwner = fleet().server(fleet.previousOwner(key));
      olderUsers.put(key, "v1");
      assertThat(newerUsers.getIfPresent(key, STRING)).as("the newer JVM's read").isEqualTo("v1");

      long errorsBefore = older.cacheStats().get("users").errorCount();
      previousOwner.pause();
      try {
        olderUsers.put(key, "v2"); // times out; applied once the server thaws
      } finally {
        previousOwner.resume();
      }
      long timedOut = older.cacheStats().get("users").errorCount() - errorsBefore;
      int cleaned = ManagerHooks.cleanMarks(older); // after the put, on the same connection
      Object got = newerUsers.getIfPresent(key, STRING);
      System.out.printf(
          "%n=== %s: an older ring's put timed out (%d node error), its mark cleaned (%d); the"
              + " newer JVM then read %s%n",
          getClass().getSimpleName(), timedOut, cleaned, got);
      assertThat(timedOut).as("the put timed out").isEqualTo(1);
      assertThat(got).as("a read after v2's put completed").isNotEqualTo("v1");
    }
  }

  /**
   * Two managers stand for two JVMs, one on three nodes, one on four within its window. The newer
   * JVM's last call to the key's previous owner {@code A} failed (a read while {@code A} was
   * frozen), so it does not wait for {@code A} again; but {@code A} serves the older JVM. The newer
   * JVM puts v2: the older JVM must not go on reading v1 on {@code A}. The newer JVM sends the
   * window's tombstone there without waiting for the reply (found by the fleet simulation with
   * dropped replies: 25 of 500 seeds before). Before, it only marked the copy stale in itself.
   */
  @Test
  void newerRingsPut_whilePreviousOwnerJustFailedInIt_olderJvmStopsReadingTheOldValue()
      throws Exception {
    try (Rollout fleet = new Rollout()) {
      InterceptedCache olderUsers = fleet.olderUsers;
      InterceptedCache newerUsers = fleet.newerUsers;
      List<String> moved = fleet.moved();
      String key = moved.get(0);
      String a = fleet.previousOwner(key);
      String other =
          moved.stream().skip(1).filter(k -> fleet.previousOwner(k).equals(a)).findFirst().get();
      ScenarioServer previousOwner = fleet().server(a);
      olderUsers.put(key, "v1");
      assertThat(olderUsers.getIfPresent(key, STRING)).isEqualTo("v1");

      previousOwner.pause();
      try {
        // the newer JVM reads another key that moved from the frozen server: its call there fails
        newerUsers.getIfPresent(other, STRING);
      } finally {
        previousOwner.resume();
      }
      newerUsers.put(key, "v2");
      // the tombstone was sent unawaited: the older JVM's reads see it once the server has it
      Object got = "v1";
      for (int i = 0; i < 200 && "v1".equals(got); i++) {
        got = olderUsers.getIfPresent(key, STRING);
        if ("v1".equals(got)) {
          TimeUnit.MILLISECONDS.sleep(10);
        }
      }
      System.out.printf(
          "%n=== %s: a newer ring's put while the previous owner had just failed in it; the older"
              + " JVM then read %s%n",
          getClass().getSimpleName(), got);
      assertThat(got).as("the older JVM's read after v2's put").isNotEqualTo("v1");
    }
  }

  /**
   * Two managers stand for two JVMs on the same three nodes, no change under way (found by the
   * fleet simulation, seed 4120415584). In JVM B a sync load of a key has read the database (v1)
   * and waits in its loader; JVM A evicts the key, and the database moves on to v2; then a second
   * caller in B misses and joins the running load. The load's fill finds its lease gone, so the
   * joined caller, which began after the evict, loads for itself and returns v2, not v1. Before, it
   * took the shared v1.
   */
  @Test
  void callerJoiningALoadThatAnotherJvmsEvictOvertook_loadsForItself() throws Throwable {
    ManagerHooks.Clock clock = new ManagerHooks.Clock();
    try (ShardedCacheManager a = manualManager(config(first(3)), clock);
        ShardedCacheManager b = manualManager(config(first(3)), clock)) {
      InterceptedCache aUsers = InterceptedCache.of(a.cache("users"));
      InterceptedCache bUsers = InterceptedCache.of(b.cache("users"));
      String key = keys(bUsers, 1).get(0);
      String[] database = {"v1"};
      CountDownLatch loading = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Queue<Throwable> thrown = new ConcurrentLinkedQueue<>();
      Object[] got = new Object[2];
      Thread first =
          new Thread(
              () -> {
                try {
                  got[0] =
                      bUsers.get(
                          key,
                          STRING,
                          () -> {
                            String read = database[0];
                            loading.countDown();
                            release.await(30, TimeUnit.SECONDS);
                            return read;
                          },
                          true,
                          false);
                } catch (Throwable e) {
                  thrown.add(e);
                }
              },
              "first-load");
      first.start();
      assertThat(loading.await(30, TimeUnit.SECONDS)).as("the first load read v1").isTrue();
      aUsers.evict(key);
      database[0] = "v2";
      Thread joined =
          new Thread(
              () -> {
                try {
                  got[1] = bUsers.get(key, STRING, () -> database[0], true, false);
                } catch (Throwable e) {
                  thrown.add(e);
                }
              },
              "joined-load");
      joined.start();
      try {
        // the joined caller waits on the running load once it has missed and joined it
        for (int i = 0; i < 3_000 && joined.getState() != Thread.State.WAITING; i++) {
          Thread.onSpinWait();
          TimeUnit.MILLISECONDS.sleep(1);
        }
        assertThat(joined.getState())
            .as("the second caller joined the load")
            .isEqualTo(Thread.State.WAITING);
      } finally {
        release.countDown();
        first.join(TimeUnit.SECONDS.toMillis(30));
        joined.join(TimeUnit.SECONDS.toMillis(30));
      }
      System.out.printf(
          "%n=== %s: a load overtaken by another JVM's evict: its own caller read %s, the caller"
              + " that joined after the evict %s%n",
          getClass().getSimpleName(), got[0], got[1]);
      assertThat(thrown).as("exceptions that reached callers").isEmpty();
      assertThat(got[1]).as("the caller that began after the evict").isEqualTo("v2");
    }
  }

  /**
   * Two managers stand for two JVMs during a second change's rollout (found by the fleet
   * simulation, seed 4120415617). The older JVM has removed a fourth node and its window has
   * passed; the newer JVM has also removed the key's owner {@code X}, so its target is {@code Y}
   * and {@code X} its previous owner. The newer JVM wrote v1 on {@code Y}, the older v2 on {@code
   * X}. The older JVM's sweep finds v1 on {@code Y}, a leftover to it, and takes the home's copy
   * first; a read in the newer JVM between that and the leftover's delete must not return v1.
   * Before, the home's copy was deleted, and the read found v1 on its target and nothing newer on
   * its previous owner. Not a test of its own: it needs servers that list their keys (a sweep that
   * cannot list them deletes no leftover), so the subclasses whose servers do run it.
   */
  protected final void olderJvmsSweepOfANewerRingsTarget_leavesNoOlderValueReadable() {
    ManagerHooks.Clock newerClock = new ManagerHooks.Clock();
    ManagerHooks.Clock olderClock = new ManagerHooks.Clock();
    try (ShardedCacheManager newer = manualManager(config(first(3)), newerClock)) {
      InterceptedCache newerUsers = InterceptedCache.of(newer.cache("users"));
      String key = keys(newerUsers, 1).get(0);
      String x = RingKeys.owner(newer, key);
      newer.removeNode(x);
      String y = RingKeys.owner(newer, key);
      HookedNode[] atY = new HookedNode[1];
      CacheNodeFactory hooking = HookedNode.wrapping(nodeFactory(), y, made -> atY[0] = made);
      try (ShardedCacheManager older =
          ManagerHooks.manualManager(config(first(4)), olderClock, hooking)) {
        older.removeNode(fourth());
        InterceptedCache olderUsers = InterceptedCache.of(older.cache("users"));
        newerUsers.put(key, "v1");
        olderUsers.put(key, "v2");
        Object[] between = new Object[1];
        boolean[] ran = new boolean[1];
        atY[0].onceBefore(
            "doomed " + key,
            () -> {
              ran[0] = true;
              between[0] = newerUsers.getIfPresent(key, STRING);
            });
        olderClock.advance(WINDOW.plusSeconds(1));
        ManagerHooks.sweep(older);
        Object after = newerUsers.getIfPresent(key, STRING);
        System.out.printf(
            "%n=== %s: the older JVM's sweep of the newer ring's copy on %s (home %s): a read"
                + " between its two deletes returned %s, after the sweep %s%n",
            getClass().getSimpleName(), y, x, between[0], after);
        assertThat(ran[0]).as("the read between the sweep's two deletes ran").isTrue();
        assertThat(between[0]).as("a read after v2's put").isNotEqualTo("v1");
        assertThat(after).as("a read after the sweep").isNotEqualTo("v1");
      }
    }
  }

  /**
   * A vouch names its target (issue 41). Four nodes, three rings: A on the first three, B adding
   * the fourth, C the first two; the key is on the third node in A, on the fourth in B, on one of
   * the first two in C. A JVM on B changed from A; a late JVM changed from A straight to C, since
   * C's file no longer names A (its rollout long over), and never ran B. Both treat the third node
   * as the key's previous owner. The late JVM puts v0 (on its target, a vouch on the third node);
   * the JVM on B puts v1 (on the fourth node, and its own vouch on the third, for the fourth). The
   * late JVM's next read finds v0 on its target and a vouch on the previous owner, for another
   * node's copy: v1 is newer than v0, so the read must miss. Taken for a vouch of its own target's
   * copy, it served v0 (fleet seed 5267, before JVMs changed through the rings they missed).
   */
  @Test
  void vouchForAnotherNodesCopy_isNoVouchForALateJvmsTarget() {
    ManagerHooks.Clock clock = new ManagerHooks.Clock();
    try (ShardedCacheManager onB = manualManager(config(first(3)), clock);
        ShardedCacheManager late = manualManager(config(first(3)), clock)) {
      InterceptedCache bUsers = InterceptedCache.of(onB.cache("users"));
      InterceptedCache lateUsers = InterceptedCache.of(late.cache("users"));
      String third = first(3).get(2);
      List<String> onThirdInA = ownedBy(onB, keys(bUsers, KEYS), third);
      onB.addNode(config(first(4)).nodes().get(3));
      late.removeNode(third);
      String key = ownedBy(onB, onThirdInA, fourth()).get(0);
      lateUsers.put(key, "v0");
      bUsers.put(key, "v1");
      Object first = lateUsers.getIfPresent(key, STRING);
      Object again = lateUsers.getIfPresent(key, STRING);
      System.out.printf(
          "%n=== %s: a late JVM that skipped a ring read %s, then %s (v0 its own older put on"
              + " %s, v1 the newer put on %s, whose vouch the previous owner %s holds)%n",
          getClass().getSimpleName(), first, again, RingKeys.owner(late, key), fourth(), third);
      assertThat(first).as("the late JVM's read after v1's put").isNotEqualTo("v0");
      assertThat(again).as("its next read").isNotEqualTo("v0");
    }
  }

  /**
   * Equal bytes are not the same write (issue 40: an ABA confirmed on Redis). Three managers stand
   * for three JVMs: the newer (four nodes) puts A on a moved key's target, the older (three nodes)
   * puts B on its previous owner, and a reader on four nodes reads both: B is the last write, so it
   * is served and moved over A, the move's compare-and-set expecting A on the target. Just before
   * that compare-and-set, the newer JVM puts A again, and its put completes. A server that compares
   * stored bytes took the second A for the first and let the move land: every later read returned
   * B, older than that put. Each write is a stored entry of its own (a version, on Redis; a {@code
   * cas} unique, on memcached), so the move fails and the second A is read.
   */
  @Test
  void moveOverAValuePutAgainWithEqualBytes_neverLandsTheOlderWrite() {
    String key;
    try (Rollout probe = new Rollout()) {
      key = probe.moved().get(0);
    }
    HookedNode[] hooked = new HookedNode[1];
    try (Rollout fleet = new Rollout();
        ShardedCacheManager reader =
            ManagerHooks.manualManager(
                config(first(3)),
                fleet.clock,
                HookedNode.wrapping(nodeFactory(), fourth(), made -> hooked[0] = made))) {
      reader.addNode(config(first(4)).nodes().get(3));
      InterceptedCache readerUsers = InterceptedCache.of(reader.cache("users"));
      fleet.newerUsers.put(key, "A");
      fleet.olderUsers.put(key, "B");
      boolean[] ran = new boolean[1];
      hooked[0].onceBefore(
          "putIf",
          () -> {
            ran[0] = true;
            fleet.newerUsers.put(key, "A");
          });

      Object first = readerUsers.getIfPresent(key, STRING);
      Object after = readerUsers.getIfPresent(key, STRING);
      Object newer = fleet.newerUsers.getIfPresent(key, STRING);
      System.out.printf(
          "%n=== %s: B moved over A while A was put again: the reader read %s, then %s;"
              + " the newer JVM %s%n",
          getClass().getSimpleName(), first, after, newer);
      assertThat(ran[0]).as("A was put again before the move's compare-and-set").isTrue();
      assertThat(first).as("the read that moved B").isIn("B", null);
      assertThat(after).as("a read after A's second put").isIn("A", null);
      assertThat(newer).as("the newer JVM's read").isIn("A", null);
    }
  }
}
