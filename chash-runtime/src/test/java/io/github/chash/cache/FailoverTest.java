package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.FailoverConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FailoverTest {
  private static final Duration RETRY_AFTER = Duration.ofSeconds(30);

  private final FakeTicker ticker = new FakeTicker();
  private final Map<String, FaultyNode> nodes = new LinkedHashMap<>();
  private RingCacheManager manager;
  private InterceptedCache users;

  private void start(OnRejoin onRejoin) {
    start(new FailoverConfig(3, RETRY_AFTER, Duration.ofMillis(100), onRejoin), List.of());
  }

  /** Nodes a to d, of which {@code promoting} say they promote a replica (Sentinel shards). */
  private void start(FailoverConfig failover, List<String> promoting) {
    ShardedCaches.Builder builder =
        ShardedCaches.builder()
            .ticker(ticker)
            .scheduleProbes(false)
            .failover(failover)
            .cache("users", Duration.ofMinutes(10));
    for (String id : List.of("a", "b", "c", "d")) {
      FaultyNode node = new FaultyNode(CacheNodes.local(id, 1000, ticker));
      node.promotesReplica(promoting.contains(id));
      nodes.put(id, node);
      builder.node(node, 1);
    }
    manager = (RingCacheManager) builder.build();
    users = InterceptedCache.of(manager.cache("users"));
  }

  private static final Duration PROMOTION_WAIT = Duration.ofSeconds(10);

  /** Shard b promotes a replica when its primary dies; failover.promotionWait is 10 s. */
  private void startWithPromotingShardB() {
    start(
        new FailoverConfig(3, RETRY_AFTER, Duration.ofMillis(100), OnRejoin.KEEP)
            .withPromotionWait(PROMOTION_WAIT),
        List.of("b"));
  }

  @AfterEach
  void close() {
    if (manager != null) {
      manager.close();
    }
  }

  /** A routing key owned by the node with the given id. */
  private String keyOwnedBy(String id) {
    return keysOwnedBy(id, 1).get(0);
  }

  /** {@code n} routing keys owned by the node with the given id. */
  private List<String> keysOwnedBy(String id, int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; keys.size() < n; i++) {
      String key = users.routingKey(i, "T.m(id)");
      if (manager.ring().locate(key).id().equals(id)) {
        keys.add(key);
      }
    }
    return keys;
  }

  private List<String> liveIds() {
    return manager.liveRing().nodes().stream().map(Node::id).toList();
  }

  @Test
  void get_backendFailureIsAMissThatRunsTheLoader() throws Throwable {
    start(OnRejoin.FLUSH);
    String key = keyOwnedBy("a");
    users.put(key, "cached");
    nodes.get("a").failing(true);

    assertThat(users.<String>get(key, ValueType.OBJECT, () -> "loaded", true, false))
        .isEqualTo("loaded");
    // One node call for the whole miss: after the failed lookup, neither the sync re-check nor
    // the optional store waits on the failing node again.
    assertThat(nodes.get("a").calls).hasValue(2);
    users.put(key, "ignored");
    users.evict(key);

    // The lookup, the explicit put and the eviction failed: the third failure ejected "a"; the
    // eviction also reached a's stand-in.
    assertThat(users.stats())
        .isEqualTo(
            CacheStats.builder()
                .missCount(1)
                .loadCount(1)
                .putCount(1)
                .evictionCount(1)
                .errorCount(3)
                .build());
    assertThat(manager.nodeStats().get("a").errorCount()).isEqualTo(3);
    assertThat(manager.nodeStats().get("a").ejectionCount()).isEqualTo(1);
  }

  @Test
  void failed_ejectsAfterExactlyFailureLimitConsecutiveFailures() {
    start(OnRejoin.FLUSH); // the default promotionWait applies only to nodes that promote replicas
    String key = keyOwnedBy("b");
    FaultyNode b = nodes.get("b");
    b.failing(true);

    users.getIfPresent(key, ValueType.OBJECT);
    users.getIfPresent(key, ValueType.OBJECT);
    assertThat(liveIds()).contains("b");
    b.failing(false);
    users.getIfPresent(key, ValueType.OBJECT); // a success ends the streak
    b.failing(true);
    users.getIfPresent(key, ValueType.OBJECT);
    users.getIfPresent(key, ValueType.OBJECT);
    assertThat(liveIds()).contains("b");
    users.getIfPresent(key, ValueType.OBJECT);

    assertThat(liveIds()).containsExactly("a", "c", "d");
    assertThat(manager.nodeStats().get("b").ejectionCount()).isEqualTo(1);
    assertThat(manager.nodeStats().get("b").errorCount()).isEqualTo(5);
    int callsAtEjection = b.calls.get();
    users.getIfPresent(key, ValueType.OBJECT);
    assertThat(b.calls).hasValue(callsAtEjection);
  }

  @Test
  void promotingNode_failuresWithinPromotionWait_keepItIn_itsCallsAreMissesAndItsKeysStay()
      throws Throwable {
    startWithPromotingShardB();
    // a key written and failed is marked unknown there, and no longer read: reads use another
    String read = keysOwnedBy("b", 2).get(0);
    String written = keysOwnedBy("b", 2).get(1);
    FaultyNode b = nodes.get("b");
    b.refusing(true); // its primary is gone: every call fails at once

    for (int i = 0; i < 20; i++) {
      assertThat(users.<String>get(read, ValueType.OBJECT, () -> "loaded", false, false))
          .isEqualTo("loaded");
      users.put(written, "v" + i);
      ticker.advance(PROMOTION_WAIT.dividedBy(20).minusNanos(1));
    }
    assertThat(liveIds()).containsExactly("a", "b", "c", "d");
    assertThat(manager.nodeStats().get("b").errorCount()).isEqualTo(40);
    assertThat(manager.nodeStats().get("b").ejectionCount()).isZero();
    // the keys did not move: no other node holds them
    for (String other : List.of("a", "c", "d")) {
      assertThat(nodes.get(other).delegate.get(read, ValueType.OBJECT)).as(other).isNull();
      assertThat(nodes.get(other).delegate.get(written, ValueType.OBJECT)).as(other).isNull();
    }

    ticker.advance(Duration.ofNanos(20)); // the streak has now lasted promotionWait
    users.getIfPresent(read, ValueType.OBJECT);
    assertThat(liveIds()).containsExactly("a", "c", "d");
    assertThat(manager.nodeStats().get("b").ejectionCount()).isEqualTo(1);
  }

  @Test
  void promotingNode_aSuccessEndsTheStreak_andTheWaitStartsAgainAtTheNextFailure() {
    startWithPromotingShardB();
    String key = keyOwnedBy("b");
    FaultyNode b = nodes.get("b");
    b.refusing(true);
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(key, ValueType.OBJECT);
    }
    ticker.advance(Duration.ofSeconds(6));
    b.refusing(false);
    users.getIfPresent(key, ValueType.OBJECT); // the new primary answers
    b.refusing(true);
    users.getIfPresent(key, ValueType.OBJECT);
    ticker.advance(Duration.ofSeconds(6)); // 12 s since the first failure, 6 s into this streak
    users.getIfPresent(key, ValueType.OBJECT);
    users.getIfPresent(key, ValueType.OBJECT);
    assertThat(liveIds()).contains("b");

    ticker.advance(Duration.ofSeconds(4));
    users.getIfPresent(key, ValueType.OBJECT);
    assertThat(liveIds()).doesNotContain("b");
  }

  @Test
  void promotingNode_aWriteThatFailedDuringThePromotion_isNeverReadBackOlder() {
    startWithPromotingShardB();
    String key = keyOwnedBy("b");
    FaultyNode b = nodes.get("b");
    users.put(key, "v1"); // on the old primary and its replica
    b.refusing(true);
    users.put(key, "v2"); // fails: the promoted replica will hold v1
    for (int i = 0; i < 5; i++) {
      assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
    }
    assertThat(liveIds()).as("within promotionWait").contains("b");

    b.refusing(false); // promoted, reconnected: the shard answers with v1
    assertThat(b.delegate.get(key, ValueType.OBJECT)).isEqualTo("v1");
    assertThat(users.getIfPresent(key, ValueType.OBJECT))
        .as("the copy of unknown state is not read")
        .isNull();
    users.put(key, "v3");
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isEqualTo("v3");
    assertThat(manager.nodeStats().get("b").ejectionCount()).isZero();
  }

  @Test
  void promotingNode_writesFailingPastPromotionWaitWhileReadsSucceed_ejectIt() {
    startWithPromotingShardB();
    String key = keysOwnedBy("b", 2).get(0);
    String read = keysOwnedBy("b", 2).get(1); // not written, so not marked: read from the node
    FaultyNode b = nodes.get("b");
    b.refusingWrites(true); // promoted, but no replica acknowledges its writes
    for (int i = 0; i < 5; i++) {
      users.put(key, "v" + i);
      users.getIfPresent(read, ValueType.OBJECT); // reads succeed: only the write streak runs
    }
    ticker.advance(PROMOTION_WAIT.minusMillis(1));
    users.put(key, "v5");
    users.getIfPresent(read, ValueType.OBJECT);
    assertThat(liveIds()).contains("b");
    assertThat(manager.nodeStats().get("b").errorCount()).isEqualTo(6);

    ticker.advance(Duration.ofMillis(1));
    users.put(key, "v6");
    assertThat(liveIds()).doesNotContain("b");
  }

  @Test
  void promotingNode_ejectedPastTheWait_isReadmittedByItsProbe_andItsNextOutageWaitsAgain() {
    startWithPromotingShardB();
    String key = keyOwnedBy("b");
    FaultyNode b = nodes.get("b");
    b.refusing(true);
    users.getIfPresent(key, ValueType.OBJECT);
    ticker.advance(PROMOTION_WAIT);
    users.getIfPresent(key, ValueType.OBJECT);
    users.getIfPresent(key, ValueType.OBJECT);
    assertThat(liveIds()).doesNotContain("b");

    b.refusing(false);
    ticker.advance(RETRY_AFTER);
    manager.failurePolicy().probeDue();
    assertThat(liveIds()).contains("b");

    b.refusing(true);
    for (int i = 0; i < 5; i++) {
      users.getIfPresent(key, ValueType.OBJECT);
    }
    assertThat(liveIds()).as("a new outage, a new wait").contains("b");
    assertThat(manager.nodeStats().get("b").ejectionCount()).isEqualTo(1);
  }

  @Test
  void promotingNodes_timingOutPastTheWait_theEjectionCapStillHoldsHalfTheRingIn() {
    start(
        new FailoverConfig(3, RETRY_AFTER, Duration.ofMillis(100), OnRejoin.KEEP)
            .withPromotionWait(PROMOTION_WAIT),
        List.of("a", "b", "c", "d"));
    nodes.values().forEach(n -> n.failing(true)); // timeouts: this client may be the cause
    for (String id : List.of("a", "b", "c", "d")) {
      for (int i = 0; i < 3; i++) {
        users.getIfPresent(keyOwnedBy(id), ValueType.OBJECT);
      }
    }
    assertThat(liveIds()).hasSize(4);

    ticker.advance(PROMOTION_WAIT);
    for (String id : List.of("a", "b", "c", "d")) {
      users.getIfPresent(keyOwnedBy(id), ValueType.OBJECT);
    }
    assertThat(liveIds()).hasSize(2);
  }

  @Test
  void promotionWaitZero_ejectsAPromotingNodeByCountAlone() {
    start(
        new FailoverConfig(3, RETRY_AFTER, Duration.ofMillis(100), OnRejoin.KEEP)
            .withPromotionWait(Duration.ZERO),
        List.of("b"));
    nodes.get("b").refusing(true);
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(keyOwnedBy("b"), ValueType.OBJECT);
    }
    assertThat(liveIds()).doesNotContain("b");
  }

  @Test
  void ejected_keysMoveToTheirNextPreferenceListNode() {
    start(OnRejoin.FLUSH);
    nodes.get("c").failing(true);
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(keyOwnedBy("c"), ValueType.OBJECT);
    }
    assertThat(liveIds()).doesNotContain("c");
    for (int i = 0; i < 500; i++) {
      String key = users.routingKey("user-" + i, "T.m(name)");
      List<Node> preference = manager.ring().locate(key, 2);
      String expected =
          preference.get(0).id().equals("c") ? preference.get(1).id() : preference.get(0).id();
      users.put(key, i);
      assertThat(nodes.get(expected).delegate.get(key, ValueType.OBJECT)).isEqualTo(i);
    }
  }

  @Test
  void probeDue_readmitsAfterRetryAfterFlushingFirst() {
    start(OnRejoin.FLUSH);
    String key = keyOwnedBy("a");
    users.put(key, "v1");
    FaultyNode a = nodes.get("a");
    a.failing(true);
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(key, ValueType.OBJECT);
    }
    assertThat(liveIds()).doesNotContain("a");

    users.put(key, "v2"); // lands on the fallback during the outage
    a.failing(false);
    ticker.advance(RETRY_AFTER.minusSeconds(1));
    manager.failurePolicy().probeDue();
    assertThat(liveIds()).doesNotContain("a");

    ticker.advance(Duration.ofSeconds(1));
    manager.failurePolicy().probeDue();
    assertThat(liveIds()).containsExactly("a", "b", "c", "d");
    assertThat(a.clears).hasValue(1);
    // The owner is back and was flushed: v1 is never served again.
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
  }

  @Test
  void probeDue_keepModeReadmitsWithoutClearing() {
    start(OnRejoin.KEEP);
    String key = keyOwnedBy("d");
    users.put(key, "v1");
    nodes.get("d").failing(true);
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(key, ValueType.OBJECT);
    }
    nodes.get("d").failing(false);
    ticker.advance(RETRY_AFTER);
    manager.failurePolicy().probeDue();
    assertThat(liveIds()).contains("d");
    assertThat(nodes.get("d").clears).hasValue(0);
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isEqualTo("v1");
  }

  @Test
  void keep_aNodeThatNeverAnsweredThisJvm_isEmptiedWhenItRejoins() {
    start(OnRejoin.KEEP);
    FaultyNode d = nodes.get("d");
    String key = keyOwnedBy("d");
    d.put(key, "v1", Duration.ofMinutes(10)); // written by an earlier run of this JVM, or another
    d.failing(true); // out to this JVM from its start: an earlier run's marks are lost
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(key, ValueType.OBJECT);
    }
    assertThat(liveIds()).doesNotContain("d");
    d.failing(false);
    ticker.advance(RETRY_AFTER);
    manager.failurePolicy().probeDue();

    assertThat(liveIds()).contains("d");
    assertThat(d.clears).hasValue(1);
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
  }

  @Test
  void keepIsTheDefault() {
    assertThat(FailoverConfig.defaults().onRejoin()).isEqualTo(OnRejoin.KEEP);
  }

  @Test
  void probeDue_failedProbeWaitsAnotherRetryAfter() {
    start(OnRejoin.FLUSH);
    FaultyNode a = nodes.get("a");
    a.failing(true);
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(keyOwnedBy("a"), ValueType.OBJECT);
    }
    ticker.advance(RETRY_AFTER);
    manager.failurePolicy().probeDue(); // ping fails
    assertThat(liveIds()).doesNotContain("a");

    a.failing(false);
    ticker.advance(RETRY_AFTER.minusSeconds(1));
    manager.failurePolicy().probeDue();
    assertThat(liveIds()).doesNotContain("a");
    ticker.advance(Duration.ofSeconds(1));
    manager.failurePolicy().probeDue();
    assertThat(liveIds()).contains("a");
    assertThat(manager.nodeStats().get("a").ejectionCount()).isEqualTo(1);
  }

  @Test
  void probeDue_evictsCopiesWrittenToTheFallbackDuringTheOutage() {
    start(OnRejoin.FLUSH);
    String key = keyOwnedBy("a");
    String other = keyOwnedBy("b");
    FaultyNode a = nodes.get("a");
    a.failing(true);
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(key, ValueType.OBJECT);
    }
    String fallback = manager.liveRing().locate(key).id();
    users.put(key, "v2"); // displaced to the fallback
    users.put(other, "x"); // at its owner as usual
    assertThat(nodes.get(fallback).delegate.get(key, ValueType.OBJECT)).isEqualTo("v2");

    a.failing(false);
    ticker.advance(RETRY_AFTER);
    manager.failurePolicy().probeDue();
    assertThat(nodes.get(fallback).delegate.get(key, ValueType.OBJECT)).isNull();
    assertThat(users.getIfPresent(other, ValueType.OBJECT)).isEqualTo("x");

    users.put(key, "v3"); // at the owner again
    a.failing(true);
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(key, ValueType.OBJECT);
    }
    // A second outage must not resurrect v2 from the fallback.
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
  }

  @Test
  void evict_deletesOnOwnerAndFirstFallbackOnly() {
    start(OnRejoin.FLUSH);
    String key = users.routingKey("alice", "T.m(name)");
    List<Node> preference = manager.ring().locate(key, 4);
    for (Node n : preference) {
      nodes.get(n.id()).delegate.put(key, "stale", null);
    }
    users.evict(key);
    assertThat(nodes.get(preference.get(0).id()).delegate.get(key, ValueType.OBJECT)).isNull();
    assertThat(nodes.get(preference.get(1).id()).delegate.get(key, ValueType.OBJECT)).isNull();
    assertThat(nodes.get(preference.get(2).id()).delegate.get(key, ValueType.OBJECT))
        .isEqualTo("stale");
    assertThat(nodes.get(preference.get(3).id()).delegate.get(key, ValueType.OBJECT))
        .isEqualTo("stale");
  }

  @Test
  void allNodesFailing_halfAreEjected_andCallsStillSucceedAsMisses() throws Throwable {
    start(OnRejoin.FLUSH);
    nodes.values().forEach(n -> n.failing(true));
    for (int i = 0; i < 100; i++) {
      String key = users.routingKey(i, "T.m(id)");
      assertThat(users.<Integer>get(key, ValueType.OBJECT, () -> 7, false, false)).isEqualTo(7);
    }
    // at most half the ring's weight is ejected: the other two stay in, their calls misses
    assertThat(liveIds()).hasSize(2);
    assertThat(users.<Integer>get("users:x", ValueType.OBJECT, () -> 8, true, false)).isEqualTo(8);
    users.put("users:x", 1);
    users.evict("users:x");
  }

  @Test
  void callsThatFailedBecauseThisJvmStalled_neverEjectTheNode() throws Throwable {
    start(OnRejoin.FLUSH);
    String key = keyOwnedBy("a");
    nodes.get("a").stalled(true);
    for (int i = 0; i < 10; i++) {
      assertThat(users.<String>get(key, ValueType.OBJECT, () -> "loaded", false, false))
          .isEqualTo("loaded");
    }
    assertThat(liveIds()).contains("a");
    assertThat(manager.nodeStats().get("a").errorCount()).isGreaterThanOrEqualTo(10);
    assertThat(manager.nodeStats().get("a").ejectionCount()).isZero();
  }

  @Test
  void serversThatRefuseConnections_areAllEjected_theCapHoldsBackOnlyTimeouts() {
    start(OnRejoin.FLUSH);
    for (String id : List.of("a", "b", "c")) {
      nodes.get(id).refusing(true);
      for (int i = 0; i < 3; i++) {
        users.getIfPresent(keyOwnedBy(id), ValueType.OBJECT);
      }
    }
    // a refused connection is the server's doing, never a starved client's: no cap
    assertThat(liveIds()).containsExactly("d");
  }

  @Test
  void aNodeHeldInIsEjectedOnceAnotherIsBack() {
    start(OnRejoin.FLUSH);
    for (String id : List.of("a", "b", "c")) {
      nodes.get(id).failing(true);
      for (int i = 0; i < 3; i++) {
        users.getIfPresent(keyOwnedBy(id), ValueType.OBJECT);
      }
    }
    assertThat(liveIds()).containsExactly("c", "d");

    nodes.get("a").failing(false);
    ticker.advance(RETRY_AFTER);
    manager.failurePolicy().probeDue();
    assertThat(liveIds()).containsExactlyInAnyOrder("a", "c", "d");
    users.getIfPresent(keyOwnedBy("c"), ValueType.OBJECT);
    assertThat(liveIds()).containsExactlyInAnyOrder("a", "d");
  }

  @Test
  void oneNodeMayAlwaysBeEjected_whateverItsWeight() {
    ShardedCaches.Builder builder =
        ShardedCaches.builder()
            .ticker(ticker)
            .scheduleProbes(false)
            .failover(new FailoverConfig(1, RETRY_AFTER, Duration.ofMillis(100), OnRejoin.FLUSH))
            .cache("users", Duration.ofMinutes(10));
    FaultyNode heavy = new FaultyNode(CacheNodes.local("heavy", 1000, ticker));
    builder.node(heavy, 3).node(CacheNodes.local("light", 1000, ticker), 1);
    manager = (RingCacheManager) builder.build();
    users = InterceptedCache.of(manager.cache("users"));
    heavy.failing(true);

    users.getIfPresent(keyOwnedBy("heavy"), ValueType.OBJECT);

    assertThat(liveIds()).containsExactly("light");
  }

  @Test
  void get_twoThreadsUnderFlappingFailuresNeverSeeAnException() throws Exception {
    start(OnRejoin.FLUSH);
    FaultyNode b = nodes.get("b");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    AtomicInteger calls = new AtomicInteger();
    AtomicBoolean flipsDone = new AtomicBoolean();
    try {
      List<Future<Integer>> callers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        callers.add(
            pool.submit(
                () -> {
                  int wrong = 0;
                  for (int i = 0; !flipsDone.get(); i++) {
                    int id = i % 200;
                    String key = users.routingKey(id, "T.m(id)");
                    Integer got;
                    try {
                      got = users.get(key, ValueType.OBJECT, () -> id * 10, (i & 1) == 0, false);
                    } catch (Throwable e) {
                      throw new AssertionError("a caller saw " + e, e);
                    }
                    calls.incrementAndGet();
                    if (got != id * 10) {
                      wrong++;
                    }
                    if (i % 1000 == 0) {
                      manager.failurePolicy().probeDue();
                    }
                  }
                  return wrong;
                }));
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      for (int flip = 0; flip < 200; flip++) {
        b.failing(flip % 2 == 0);
        ticker.advance(RETRY_AFTER);
        // the callers make at least 50 calls in each state of b before it flips again, and call
        // until the last flip: every flip lands among calls, however the threads are scheduled
        int target = calls.get() + 50;
        while (calls.get() < target) {
          for (Future<Integer> caller : callers) {
            if (caller.isDone()) { // only by an exception: get() throws it
              throw new AssertionError("a caller stopped at flip " + flip + ": " + caller.get());
            }
          }
          assertThat(System.nanoTime() - deadline).as("flips within 30 s").isNegative();
          Thread.yield();
        }
      }
      flipsDone.set(true);
      for (var caller : callers) {
        assertThat(caller.get(60, TimeUnit.SECONDS)).isZero();
      }
    } finally {
      flipsDone.set(true); // the callers loop until it is set
      pool.shutdownNow();
    }
    assertThat(users.stats().requestCount()).isEqualTo(calls.get());
  }

  @Test
  void scheduledProbe_readmitsWithoutHelp() throws InterruptedException {
    FaultyNode a = new FaultyNode(CacheNodes.local("a", 100));
    ShardedCacheManager real =
        ShardedCaches.builder()
            .failover(
                new FailoverConfig(
                    1, Duration.ofMillis(20), Duration.ofMillis(100), OnRejoin.FLUSH))
            .node(a, 1)
            .node(CacheNodes.local("b", 100), 1)
            .cache("users", null)
            .build();
    try {
      InterceptedCache cache = InterceptedCache.of(real.cache("users"));
      a.failing(true);
      String key = null;
      for (int i = 0; key == null; i++) {
        String k = cache.routingKey(i, "T.m(id)");
        if (real.ring().locate(k).id().equals("a")) {
          key = k;
        }
      }
      cache.getIfPresent(key, ValueType.OBJECT);
      assertThat(real.liveRing().nodes()).extracting(Node::id).containsExactly("b");
      a.failing(false);
      Awaitility.await("a back in the live ring")
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(5))
          .atMost(Duration.ofSeconds(30))
          .until(() -> real.liveRing().size() >= 2);
      assertThat(real.liveRing().nodes()).extracting(Node::id).containsExactly("a", "b");
      assertThat(a.clears).hasValue(1);
    } finally {
      real.close();
    }
  }
}
