package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.KeyLayout;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The failure policy against real servers: {@code kill -9} and freezing under load, ejection,
 * fallback, readmission with flush, and no stale value after an outage. One subclass per remote
 * node type (Redis, memcached) gives three servers and says how to look at them; the timelines are
 * printed, so a run's numbers can be quoted.
 */
public abstract class RemoteFailoverScenarios {
  private static final int FAILURE_LIMIT = 3;
  private static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  private static final int THREADS = 2;
  private static final int KEYS = 300;
  private static final ValueType STRING = ValueType.of(String.class);

  /** The failover settings of every scenario's manager. */
  protected static final String FAILOVER =
      "{ failureLimit: " + FAILURE_LIMIT + ", retryAfter: 1s, timeout: 100ms, onRejoin: flush }";

  /** {@return the three servers, their node ids and managers over them} */
  protected abstract TestFleet fleet();

  /**
   * A manager over the three servers (node ids in {@link #nodeIds()} order), with cache {@code
   * users} and the failover settings {@link #FAILOVER}, its nodes answering.
   */
  private ShardedCacheManager manager() {
    return fleet().manager(FAILOVER);
  }

  /** {@link #manager()} with cache {@code users} in the given key layout. */
  private ShardedCacheManager manager(KeyLayout layout) {
    return fleet().manager(FAILOVER, layout);
  }

  /** The key the ring hashes for a routing key (a verbatim cache's: the key as given). */
  private static String hashed(String routingKey) {
    return VerbatimKeys.key(routingKey);
  }

  private List<String> nodeIds() {
    return fleet().nodeIds();
  }

  private long pid(String nodeId) {
    return fleet().server(nodeId).pid();
  }

  private int port(String nodeId) {
    return fleet().server(nodeId).port();
  }

  private void kill(String nodeId) {
    fleet().server(nodeId).kill();
  }

  private void restart(String nodeId) {
    fleet().server(nodeId).restart();
  }

  private void pause(String nodeId) {
    fleet().server(nodeId).pause();
  }

  /** Thaws the server; a no-op if it runs. */
  private void resume(String nodeId) {
    fleet().server(nodeId).resume();
  }

  /** Whether the server holds an entry (readable or not) under the routing key's server key. */
  protected abstract boolean stored(String nodeId, String routingKey);

  /**
   * Writes what a server that kept its data would still hold: this library's entry of {@code value}
   * for the routing key, readable until a flush.
   */
  protected abstract void plantLeftover(String nodeId, String routingKey, String value);

  /** Whether a node reading the server directly would serve the routing key's entry. */
  protected abstract boolean readable(String nodeId, String routingKey);

  /** Writes another application's key on the server. */
  protected abstract void plantForeignKey(String nodeId);

  /** Whether the key of {@link #plantForeignKey} is still there. */
  protected abstract boolean foreignKeyKept(String nodeId);

  /** How the server goes away: it dies (connections reset), or freezes (calls time out). */
  enum Outage {
    KILL("kill -9", "restart"),
    FREEZE("freeze (SIGSTOP)", "thaw (SIGCONT)");

    final String start;
    final String end;

    Outage(String start, String end) {
      this.start = start;
      this.end = end;
    }
  }

  @ParameterizedTest
  @EnumSource(Outage.class)
  void outageUnderLoad_noCallerErrorEjectedServedByFallbackReadmittedAfterFlush(Outage outage)
      throws Throwable {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String victim = nodeIds().get(1);
      Timeline timeline = new Timeline();
      Load load = new Load(users, timeline);
      long failuresAtReadmission = -1;
      long failuresAtEjection;
      load.start();
      try {
        Thread.sleep(300);

        timeline.mark(outage.start + " " + victim + " (pid " + pid(victim) + ")");
        long killedAt = timeline.now();
        load.measureSlowestFrom(System.nanoTime());
        if (outage == Outage.KILL) {
          kill(victim);
        } else {
          pause(victim);
        }
        long ejectedAt =
            timeline.await(
                () -> !isLive(manager, victim), Duration.ofSeconds(5), "ejection of " + victim);
        failuresAtEjection = manager.nodeStats().get(victim).errorCount();
        timeline.mark(
            "ejection seen ("
                + failuresAtEjection
                + " failed calls on "
                + victim
                + ", "
                + (ejectedAt - killedAt)
                + " ms after the outage began; slowest caller call since the outage began "
                + String.format("%.1f", load.slowestNanos.get() / 1e6)
                + " ms)");

        // its keys are served by their fallback node now
        List<String> victimKeys = keysOwnedBy(manager, users, victim);
        for (String key : victimKeys) {
          assertThat(users.get(key, STRING, () -> value(key), false, false)).isEqualTo(value(key));
          String fallback = manager.ring().locate(hashed(key), 2).get(1).id();
          assertThat(manager.liveRing().locate(key).id()).isEqualTo(fallback);
        }
        // a write of the victim's keys lands on their fallback (keys the load threads never touch:
        // their writes may skip or undo a fill of the same key)
        for (int i = 0, checked = 0; checked < 20; i++) {
          String quiet = users.routingKey("quiet-" + i, "test");
          if (!manager.ring().locate(quiet).id().equals(victim)) {
            continue;
          }
          users.put(quiet, "x");
          String fallback = manager.ring().locate(quiet, 2).get(1).id();
          assertThat(stored(fallback, quiet)).as("%s on %s", quiet, fallback).isTrue();
          checked++;
        }
        timeline.mark(
            victimKeys.size() + " keys of " + victim + " checked on their fallback nodes");

        Thread.sleep(200);
        if (outage == Outage.KILL) {
          restart(victim);
        } else {
          resume(victim);
        }
        timeline.mark(outage.end + " " + victim + " on port " + port(victim));
        // what a server that kept its data would still hold (a key no caller touches): the rejoin
        // must delete it first; keys of other applications stay
        String leftover = "users:written-before-the-outage";
        plantLeftover(victim, leftover, "stale");
        plantForeignKey(victim);
        timeline.mark("planted a leftover " + leftover + " and a foreign key on " + victim);

        AtomicBoolean flushSeen = new AtomicBoolean();
        AtomicLong failuresSeen = new AtomicLong(-1);
        Awaitility.await("readmission of " + victim + " in time")
            .pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(1))
            .atMost(RETRY_AFTER.plusSeconds(10))
            .until(
                () -> {
                  boolean live = isLive(manager, victim);
                  boolean leftoverThere = readable(victim, leftover);
                  if (!leftoverThere && flushSeen.compareAndSet(false, true)) {
                    timeline.mark("flush seen: leftover gone from " + victim);
                  }
                  if (live) {
                    // readmitted: the flush must have come first (asserted at once, not retried)
                    assertThat(leftoverThere)
                        .as("leftover still on %s when it rejoined", victim)
                        .isFalse();
                    failuresSeen.set(manager.nodeStats().get(victim).errorCount());
                    timeline.mark(
                        "readmission seen ("
                            + (timeline.now() - ejectedAt)
                            + " ms after ejection; "
                            + failuresSeen.get()
                            + " failed calls on "
                            + victim
                            + " during the outage)");
                  }
                  return live;
                });
        failuresAtReadmission = failuresSeen.get();
        assertThat(foreignKeyKept(victim)).as("the foreign key on %s", victim).isTrue();

        Thread.sleep(300);
      } finally {
        load.stop();
        if (outage == Outage.FREEZE) {
          resume(victim); // a no-op if thawed already; a frozen server fails later tests
        }
      }
      timeline.mark(
          "load stopped: "
              + load.calls.get()
              + " calls, errors seen by callers: "
              + load.errors.size()
              + ", stale or wrong values: "
              + load.wrongValues.get()
              + ", failed calls on "
              + victim
              + ": "
              + manager.nodeStats().get(victim).errorCount()
              + ", slowest caller call since the outage began: "
              + String.format("%.1f", load.slowestNanos.get() / 1e6)
              + " ms");
      timeline.print(
          outage.start
              + " under load, "
              + THREADS
              + " threads, failureLimit "
              + FAILURE_LIMIT
              + ", retryAfter "
              + RETRY_AFTER.toMillis()
              + " ms, timeout 100 ms");

      assertThat(load.errors).as("exceptions that reached callers").isEmpty();
      assertThat(load.wrongValues).hasValue(0);
      // failureLimit failures in a row eject. Calls that fail at once (a refused connection) can
      // add more while the ejecting thread publishes the next routing, if it is descheduled there;
      // once it is published no call starts on the dead node, so at most the calls under way then
      // (one per thread) fail after it. (Later timeouts of a starved JVM on the healthy node are
      // not failures of the outage.)
      assertThat(failuresAtEjection).isGreaterThanOrEqualTo(FAILURE_LIMIT);
      assertThat(failuresAtReadmission - failuresAtEjection)
          .as("failed calls on %s after its ejection was seen", victim)
          .isLessThanOrEqualTo(THREADS);
      assertThat(manager.nodeStats().get(victim).ejectionCount()).isEqualTo(1);
      // the probe waits retryAfter from the ejection, which came after the kill
      assertThat(timeline.at("readmission"))
          .isGreaterThanOrEqualTo(timeline.at(outage.start) + RETRY_AFTER.toMillis());
      // after the rejoin the victim owns its keys again
      String key = keysOwnedBy(manager, users, victim).get(1);
      users.put(key, "after");
      assertThat(stored(victim, key)).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(KeyLayout.class)
  void staleness_killedOwner_readsNewValueOrMissNeverOld(KeyLayout layout) throws Exception {
    try (ShardedCacheManager manager = manager(layout)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String owner = nodeIds().get(0);
      String key = keysOwnedBy(manager, users, owner).get(0);
      users.put(key, "v1");
      assertThat(stored(owner, key)).isTrue();

      kill(owner);
      ejectByReading(manager, users, key, owner);
      users.put(key, "v2");
      String fallback = manager.ring().locate(hashed(key), 2).get(1).id();
      assertThat(stored(fallback, key)).isTrue();

      restart(owner);
      // the worst case: the owner comes back with v1 still on it
      plantLeftover(owner, key, "v1");
      awaitLive(manager, owner);

      assertThat(users.getIfPresent(key, STRING)).isIn("v2", null);
      assertThat(readable(owner, key)).isFalse();
    }
  }

  @ParameterizedTest
  @EnumSource(KeyLayout.class)
  void staleness_frozenOwnerKeepsItsData_readsNewValueOrMissNeverOld(KeyLayout layout)
      throws Exception {
    try (ShardedCacheManager manager = manager(layout)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String owner = nodeIds().get(2);
      String key = keysOwnedBy(manager, users, owner).get(0);
      users.put(key, "v1");

      pause(owner); // a partition: the server keeps v1, but cannot answer
      try {
        ejectByReading(manager, users, key, owner);
        users.put(key, "v2");
      } finally {
        resume(owner);
      }
      assertThat(readable(owner, key)).as("v1 survived").isTrue();
      awaitLive(manager, owner);

      assertThat(users.getIfPresent(key, STRING)).isIn("v2", null);
      assertThat(readable(owner, key)).isFalse();
      // an eviction after the rejoin reaches owner and fallback
      users.put(key, "v3");
      users.evict(key);
      for (String id : nodeIds()) {
        assertThat(stored(id, key)).as(id).isFalse();
      }
    }
  }

  /**
   * Issue 43, point 5: a verbatim cache's key is sent as given, so one under the node's keyPrefix
   * ({@code chash:}) would land in this library's own namespace: {@code
   * users.evict("chash:prices:7")} used to delete the prefixed cache {@code prices}' entry. It is
   * refused before anything is sent: the other cache's entry stays, the caller sees no exception (a
   * get loads, a put and an evict return) and no node is blamed.
   */
  @Test
  void verbatimKeyInsideTheKeyPrefix_isRefusedAndLeavesThePrefixedCachesEntry() throws Throwable {
    try (ShardedCacheManager manager = manager(KeyLayout.VERBATIM)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String prices = "prices:7"; // a prefixed cache's routing key: chash:prices:7 on the server
      for (String id : nodeIds()) {
        plantLeftover(id, prices, "price");
      }
      String intruder = users.routingKey("chash:" + prices, "test");
      assertThat(VerbatimKeys.isVerbatim(intruder)).isTrue();

      users.put(intruder, "overwritten");
      users.evict(intruder);
      assertThat(users.getIfPresent(intruder, STRING)).isNull();
      assertThat(users.load(intruder, STRING, () -> "loaded", true, false)).isEqualTo("loaded");

      for (String id : nodeIds()) {
        assertThat(readable(id, prices)).as("prices' entry on " + id).isTrue();
        assertThat(manager.nodeStats().get(id).errorCount()).as(id).isZero();
      }
      assertThat(manager.liveRing().nodes()).hasSize(3);
      assertThat(users.stats().refusedCount()).isPositive();
      // a key outside the prefix is still written as given
      String outside = users.routingKey("legacy:7", "test");
      users.put(outside, "kept");
      assertThat(stored(RingKeys.owner(manager, outside), outside)).isTrue();
    }
  }

  /**
   * A write of a key the node refuses (here a verbatim key under the keyPrefix) while the key's
   * home is out is marked on the home before it is tried elsewhere and refused there. The mark's
   * clean-up at readmission met the same refusal and threw, which kept the healthy home out of the
   * ring at every retry. It is readmitted, and serves.
   */
  @Test
  void aRefusedKeyWrittenWhileItsHomeIsOut_doesNotKeepTheHomeOut() throws Exception {
    try (ShardedCacheManager manager = manager(KeyLayout.VERBATIM)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String home = nodeIds().get(1);
      String intruder = null;
      for (int i = 0; intruder == null; i++) {
        String key = users.routingKey("chash:prices:" + i, "test");
        if (RingKeys.owner(manager, key).equals(home)) {
          intruder = key;
        }
      }
      String key = keysOwnedBy(manager, users, home).get(0);
      kill(home);
      ejectByReading(manager, users, key, home);
      users.put(intruder, "refused everywhere");
      users.evict(intruder);
      restart(home);
      awaitLive(manager, home);

      users.put(key, "served");
      assertThat(users.getIfPresent(key, STRING)).isEqualTo("served");
      assertThat(stored(home, key)).isTrue();
    }
  }

  /**
   * Issue 27: two of three servers killed at once. A refused connection is the servers' doing,
   * never a starved client's, so both are ejected and the survivor serves every key; no caller sees
   * an exception.
   */
  @Test
  void twoOfThreeKilledAtOnce_bothEjected_theSurvivorServesEveryKey() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        keys.add(users.routingKey(i, "test"));
      }
      keys.forEach(key -> users.put(key, value(key)));
      String survivor = nodeIds().get(2);
      kill(nodeIds().get(0));
      kill(nodeIds().get(1));

      long slowest = 0;
      int exceptions = 0;
      long loadsBefore = users.stats().loadCount();
      for (int round = 0; round < 3; round++) {
        for (String key : keys) {
          long start = System.nanoTime();
          try {
            assertThat(users.<String>get(key, STRING, () -> value(key), false, false))
                .isEqualTo(value(key));
          } catch (Throwable e) {
            exceptions++;
          }
          slowest = Math.max(slowest, System.nanoTime() - start);
        }
      }
      long loads = users.stats().loadCount() - loadsBefore;
      long hits =
          keys.stream().filter(key -> value(key).equals(users.getIfPresent(key, STRING))).count();
      System.out.printf(
          "%n=== %s: 2 of 3 killed at once: live ring %s, loader calls %d for %d keys x 3"
              + " rounds, then %d of %d keys hit, slowest call %.1f ms, exceptions %d%n",
          getClass().getSimpleName(),
          liveIds(manager),
          loads,
          KEYS,
          hits,
          KEYS,
          slowest / 1e6,
          exceptions);
      assertThat(exceptions).isZero();
      assertThat(liveIds(manager)).containsExactly(survivor);
      assertThat(hits).as("every key served from the survivor").isEqualTo(KEYS);
      assertThat(loads).as("each moved key loaded about once").isLessThan(2L * KEYS);
    }
  }

  /**
   * Issue 27's panic rule: two of three servers frozen at once. Timeouts are what a starved client
   * also sees, so ejecting both would take more than half the ring out on evidence that may be the
   * client's: one is ejected, the other held in (its calls misses within the timeout) until the
   * first is back.
   */
  @Test
  void twoOfThreeFrozenAtOnce_oneEjected_theOtherHeldIn() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String first = nodeIds().get(0);
      String second = nodeIds().get(1);
      pause(first);
      pause(second);
      try {
        for (String id : List.of(first, second)) {
          String key = keysOwnedBy(manager, users, id).get(0);
          for (int i = 0; i < FAILURE_LIMIT; i++) {
            assertThat(users.getIfPresent(key, STRING)).isNull();
          }
        }
        System.out.printf(
            "%n=== %s: 2 of 3 frozen at once: live ring %s%n",
            getClass().getSimpleName(), liveIds(manager));
        assertThat(liveIds(manager)).containsExactlyInAnyOrder(second, nodeIds().get(2));
      } finally {
        resume(first);
        resume(second);
      }
    }
  }

  private static List<String> liveIds(ShardedCacheManager manager) {
    return manager.liveRing().nodes().stream().map(Node::id).toList();
  }

  private static void ejectByReading(
      ShardedCacheManager manager, InterceptedCache users, String key, String owner) {
    for (int i = 0; i < FAILURE_LIMIT * 3 && isLive(manager, owner); i++) {
      assertThat(users.getIfPresent(key, STRING)).isNull();
    }
    assertThat(isLive(manager, owner)).as("%s ejected", owner).isFalse();
  }

  private static void awaitLive(ShardedCacheManager manager, String id) {
    Awaitility.await(id + " readmitted in time")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .atMost(RETRY_AFTER.plusSeconds(10))
        .until(() -> isLive(manager, id));
  }

  private static boolean isLive(ShardedCacheManager manager, String id) {
    for (Node node : manager.liveRing().nodes()) {
      if (node.id().equals(id)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> keysOwnedBy(
      ShardedCacheManager manager, InterceptedCache users, String id) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      String key = users.routingKey(i, "test");
      if (RingKeys.owner(manager, key).equals(id)) {
        keys.add(key);
      }
    }
    return keys;
  }

  private static String value(String routingKey) {
    return "db:" + routingKey;
  }

  /** Callers reading through the cache (and now and then writing), as a service would. */
  private static final class Load {
    private static final Duration MAX_RUN = Duration.ofSeconds(30);
    private final InterceptedCache users;
    private final Timeline timeline;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong wrongValues = new AtomicLong();
    private final Queue<String> errors = new ConcurrentLinkedQueue<>();
    private final AtomicLong slowestNanos = new AtomicLong();
    private volatile long measureFrom = Long.MAX_VALUE;
    private final List<Thread> threads = new ArrayList<>();

    Load(InterceptedCache users, Timeline timeline) {
      this.users = users;
      this.timeline = timeline;
    }

    void start() {
      long deadline = System.nanoTime() + MAX_RUN.toNanos();
      for (int t = 0; t < THREADS; t++) {
        int seed = t;
        Thread thread =
            new Thread(
                () -> {
                  int i = seed * 7919;
                  while (running.get() && System.nanoTime() < deadline) {
                    String key = users.routingKey(Math.floorMod(i++, KEYS), "test");
                    long started = System.nanoTime();
                    try {
                      if (i % 10 == 0) {
                        users.put(key, value(key));
                      } else {
                        String v = users.get(key, STRING, () -> value(key), false, false);
                        if (!value(key).equals(v)) {
                          wrongValues.incrementAndGet();
                        }
                      }
                    } catch (Throwable e) {
                      errors.add(timeline.now() + " ms: " + e);
                    }
                    if (started - measureFrom >= 0) {
                      long took = System.nanoTime() - started;
                      slowestNanos.accumulateAndGet(took, Math::max);
                    }
                    calls.incrementAndGet();
                  }
                },
                "load-" + t);
        threads.add(thread);
        thread.start();
      }
    }

    /** Calls that start from {@code nanoTime} on count towards {@link #slowestNanos}. */
    void measureSlowestFrom(long nanoTime) {
      measureFrom = nanoTime;
    }

    void stop() throws InterruptedException {
      running.set(false);
      for (Thread thread : threads) {
        thread.join(10_000);
      }
    }
  }

  /** Milliseconds since the test started, and what happened when. */
  public static final class Timeline {
    private final long start = System.nanoTime();
    private final List<String> lines = new ArrayList<>();
    private final List<Long> times = new ArrayList<>();

    long now() {
      return (System.nanoTime() - start) / 1_000_000;
    }

    synchronized void mark(String what) {
      times.add(now());
      lines.add(what);
    }

    /** The time of the first line containing the text. */
    synchronized long at(String text) {
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains(text)) {
          return times.get(i);
        }
      }
      throw new AssertionError("no timeline entry with \"" + text + "\": " + lines);
    }

    /** Polls every millisecond until the condition holds; returns when, in ms since start. */
    long await(BooleanSupplier condition, Duration max, String what) {
      try {
        Awaitility.await("no " + what + " within " + max)
            .pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(1))
            .atMost(max)
            .until(condition::getAsBoolean);
      } catch (ConditionTimeoutException e) {
        print("timed out waiting for " + what);
        throw e;
      }
      return now();
    }

    synchronized void print(String title) {
      StringBuilder out = new StringBuilder("\n=== timeline: ").append(title).append('\n');
      for (int i = 0; i < lines.size(); i++) {
        out.append(String.format("%7d ms  %s%n", times.get(i), lines.get(i)));
      }
      System.out.print(out);
    }
  }
}
