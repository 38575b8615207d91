package io.github.chash.it.aspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.CacheStats;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The proof a weaving mode must pass: one subclass per mode (compile-time, load-time, Spring AOP)
 * supplies a {@link UserService} whose annotations are live.
 */
public abstract class AbstractWovenServiceTest {
  /** The shards of the sample's sharded cache. */
  protected static final List<String> SHARDS = List.of("shard-a", "shard-b", "shard-c", "shard-d");

  private ShardedCacheManager manager;
  private UserService service;

  /** For subclasses. */
  protected AbstractWovenServiceTest() {}

  /** Returns a service whose annotations go through the aspect, using this manager. */
  protected abstract UserService start(ShardedCacheManager manager) throws Exception;

  /** Releases what {@link #start} set up. */
  protected abstract void stop() throws Exception;

  @BeforeEach
  final void startService() throws Exception {
    var builder = ShardedCaches.builder().ring(RingSettings.defaults());
    for (String id : SHARDS) {
      builder.node(CacheNodes.local(id, 100_000), 1);
    }
    manager = builder.cache("users", Duration.ofMinutes(10)).cache("reports", null).build();
    service = start(manager);
  }

  @AfterEach
  final void stopService() throws Exception {
    stop();
    manager.close();
  }

  @Test
  void find_runsTheBodyOncePerKey() {
    assertThat(service.find(1)).isEqualTo(new User(1, "user-1"));
    assertThat(service.find(1)).isEqualTo(new User(1, "user-1"));
    assertThat(service.find(2)).isEqualTo(new User(2, "user-2"));
    assertThat(service.find(1)).isEqualTo(new User(1, "user-1"));
    assertThat(service.bodyRuns("find", 1L)).isEqualTo(1);
    assertThat(service.bodyRuns("find", 2L)).isEqualTo(1);
  }

  @Test
  void find_isAdvisedOncePerCall() {
    service.find(7);
    service.find(7);
    CacheStats users = manager.cacheStats().get("users");
    // Double advice (call and execution, or weaving plus a proxy) would count two per call.
    assertThat(users.missCount()).isEqualTo(1);
    assertThat(users.hitCount()).isEqualTo(1);
  }

  @Test
  void save_putTakesEffect() {
    service.find(3);
    service.save(new User(3, "renamed"));
    assertThat(service.find(3)).isEqualTo(new User(3, "renamed"));
    assertThat(service.bodyRuns("find", 3L)).isEqualTo(1);
    assertThat(service.bodyRuns("save", 3L)).isEqualTo(1);
  }

  @Test
  void delete_evictionTakesEffect() {
    service.find(4);
    service.delete(4);
    assertThat(shardHolding("users:4")).isEmpty();
    service.find(4);
    assertThat(service.bodyRuns("find", 4L)).isEqualTo(2);
  }

  @Test
  void find_spreadsKeysOverTheShardsAsTheRingSays() {
    // An independent ring over the same nodes and settings: every JVM must agree with it.
    List<Node> nodes = new ArrayList<>();
    SHARDS.forEach(id -> nodes.add(Node.of(id)));
    Ring ring = Rings.create(RingSettings.defaults(), nodes);
    int keys = 4000;
    Map<String, Integer> perShard = new LinkedHashMap<>();
    for (long id = 0; id < keys; id++) {
      service.find(id);
      String routingKey = "users:" + id;
      String owner = ring.locate(routingKey).id();
      assertThat(shardHolding(routingKey))
          .as("shards holding %s", routingKey)
          .containsExactly(owner);
      perShard.merge(owner, 1, Integer::sum);
    }
    assertThat(perShard).containsOnlyKeys(SHARDS);
    Map<String, Double> expected = ring.ownership();
    for (String shard : SHARDS) {
      // 4000 keys: one standard deviation of a share is under 0.007.
      assertThat(perShard.get(shard) / (double) keys)
          .as("share of %s", shard)
          .isCloseTo(expected.get(shard), within(0.04));
    }
  }

  @Test
  void report_syncComputesOnceUnderEightConcurrentCallers() throws Exception {
    // a first call compiles the method's annotations, so that no caller below waits on that
    assertThat(service.report("warm-up", 2025)).isEqualTo("report warm-up 2025");
    CountDownLatch gate = new CountDownLatch(1);
    service.holdReportsAt(gate);
    int callers = 8;
    List<Thread> threads = new ArrayList<>();
    List<CompletableFuture<String>> results = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      CompletableFuture<String> result = new CompletableFuture<>();
      results.add(result);
      Thread caller =
          new Thread(
              () -> {
                try {
                  result.complete(service.report("eu", 2025));
                } catch (Throwable e) {
                  result.completeExceptionally(e);
                }
              });
      threads.add(caller);
      caller.start();
    }
    try {
      // the body holds its caller at the gate until every caller is parked, in the body or
      // waiting for the one load: only then is the overlap certain
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!threads.stream().allMatch(AbstractWovenServiceTest::parked)) {
        assertThat(results).as("a caller ended before the gate opened").noneMatch(r -> r.isDone());
        assertThat(System.nanoTime()).as("callers parked within 30 s").isLessThan(deadline);
        Thread.onSpinWait();
      }
      // without sync every caller would be in the body now
      assertThat(service.bodyRuns("report", "eu:2025")).as("callers in the body").isEqualTo(1);
    } finally {
      gate.countDown();
      service.holdReportsAt(null);
    }
    for (CompletableFuture<String> result : results) {
      assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo("report eu 2025");
    }
    assertThat(service.bodyRuns("report", "eu:2025")).isEqualTo(1);
  }

  private static boolean parked(Thread t) {
    Thread.State state = t.getState();
    return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
  }

  @Test
  void findActive_conditionAndUnlessDecideWhatIsCached() {
    service.findActive(5);
    service.findActive(5);
    assertThat(service.bodyRuns("findActive", 5L)).isEqualTo(1);
    assertThat(shardHolding("users:active:5")).hasSize(1);

    // condition false: the cache is not asked at all
    service.findActive(-5);
    service.findActive(-5);
    assertThat(service.bodyRuns("findActive", -5L)).isEqualTo(2);

    // unless true: the result is returned but not stored
    assertThat(service.findActive(26).name()).isEqualTo(UserService.NOBODY);
    service.findActive(26);
    assertThat(service.bodyRuns("findActive", 26L)).isEqualTo(2);
    assertThat(shardHolding("users:active:26")).isEmpty();
  }

  @Test
  void create_putKeyReadsTheResult() {
    User created = service.create("new");
    assertThat(shardHolding("users:" + created.id())).hasSize(1);
    assertThat(service.find(created.id())).isEqualTo(created);
    assertThat(service.bodyRuns("find", created.id())).isZero();
  }

  @Test
  void purge_bothEvictionsOfOneMethodTakeEffect() {
    service.find(8);
    service.summary(8);
    assertThat(shardHolding("reports:summary:8")).hasSize(1);
    service.purge(8);
    assertThat(shardHolding("users:8")).isEmpty();
    // #root.methodName is the evicting method's: purge:8, not summary:8
    assertThat(shardHolding("reports:summary:8")).hasSize(1);
    assertThat(service.bodyRuns("purge", 8L)).isEqualTo(1);
  }

  @Test
  void clearReports_allEntriesClearsOneCacheOnEveryShard() {
    for (long id = 0; id < 40; id++) {
      service.summary(id);
      service.find(id);
    }
    assertThat(holdersOf("reports:summary:", 40)).containsOnlyKeys(SHARDS);
    service.clearReports();
    assertThat(holdersOf("reports:summary:", 40)).isEmpty();
    assertThat(holdersOf("users:", 40)).containsOnlyKeys(SHARDS);
    service.summary(3);
    assertThat(service.bodyRuns("summary", 3L)).isEqualTo(2);
  }

  /** How many of the keys {@code prefix + 0 ... prefix + (n - 1)} each shard holds. */
  private Map<String, Integer> holdersOf(String prefix, int n) {
    Map<String, Integer> holders = new LinkedHashMap<>();
    for (int id = 0; id < n; id++) {
      for (String shard : shardHolding(prefix + id)) {
        holders.merge(shard, 1, Integer::sum);
      }
    }
    return holders;
  }

  /** The ids of the shards that hold the routing key. */
  private List<String> shardHolding(String routingKey) {
    List<String> holding = new ArrayList<>();
    for (String id : SHARDS) {
      if (manager.node(id).get(routingKey, ValueType.OBJECT) != null) {
        holding.add(id);
      }
    }
    return holding;
  }
}
