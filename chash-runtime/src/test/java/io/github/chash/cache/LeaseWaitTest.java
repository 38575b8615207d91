package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.ValueLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A sync load refused the lease because another JVM's load holds it waits for that load's fill
 * rather than loading for itself (issue 42's hot key: one load per expiry for the fleet, not one
 * per JVM). Two managers over one {@link LeasingNode} stand for two JVMs on one server; JVM B's
 * pause between two looks is a hook of the test, so nothing here sleeps.
 */
class LeaseWaitTest {
  private final LeasingNode node = new LeasingNode();
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final AtomicInteger pauses = new AtomicInteger();
  private volatile LeaseWait.Pause betweenLooks = nanos -> {};

  private final ShardedCacheManager jvmA = manager(nanos -> {});
  private final ShardedCacheManager jvmB =
      manager(
          nanos -> {
            pauses.incrementAndGet();
            betweenLooks.pause(nanos);
          });
  private final InterceptedCache usersA = InterceptedCache.of(jvmA.cache("users"));
  private final InterceptedCache usersB = InterceptedCache.of(jvmB.cache("users"));
  private final String key = usersA.routingKey("hot", "T.m(k)");

  private ShardedCacheManager manager(LeaseWait.Pause pause) {
    return ShardedCaches.builder()
        .node(node, 1)
        .cache("users", null)
        .pause(pause)
        .scheduleProbes(false)
        .build();
  }

  @AfterEach
  void close() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    jvmA.close();
    jvmB.close();
  }

  /** A's load holds the lease; B's first pause lets it fill: B serves A's value, loads nothing. */
  @Test
  void aLoadRefusedTheLeaseByAnotherJvm_servesThatJvmsFill() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Future<Object> loadInA = loadHeldInA(release);
    betweenLooks =
        nanos -> {
          release.countDown();
          assertThat(outcome(loadInA)).isEqualTo("from A");
        };
    AtomicInteger loadsInB = new AtomicInteger();

    Object got = get(usersB, countingLoader(loadsInB, "from B"));

    assertThat(got).isEqualTo("from A");
    assertThat(loadsInB.get()).as("loads in B").isZero();
    assertThat(pauses.get()).as("B's pauses").isEqualTo(1);
    assertThat(waitsInB()).as("B's lease waits: served, expired").containsExactly(1L, 0L);
  }

  /**
   * A's load never fills while B waits: B looks {@link LeaseWait#STEPS} times, then loads for
   * itself, and does not fill over A's lease.
   */
  @Test
  void aFillThatDoesNotComeInTheWait_costsOneLoadAndNoFill() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Future<Object> loadInA = loadHeldInA(release);
    AtomicInteger loadsInB = new AtomicInteger();

    Object got = get(usersB, countingLoader(loadsInB, "from B"));

    assertThat(got).isEqualTo("from B");
    assertThat(loadsInB.get()).as("loads in B").isEqualTo(1);
    assertThat(pauses.get()).as("B's pauses").isEqualTo(LeaseWait.STEPS);
    assertThat(waitsInB()).as("B's lease waits: served, expired").containsExactly(0L, 1L);
    release.countDown();
    assertThat(loadInA.get(30, TimeUnit.SECONDS)).isEqualTo("from A");
    assertThat(node.get(key, ValueType.OBJECT))
        .as("held: A's fill, under its lease")
        .isEqualTo("from A");
  }

  /**
   * A's load fails and gives its lease back while B waits: B's next look takes the lease, loads
   * once and fills.
   */
  @Test
  void aLeaseGivenBackDuringTheWait_isTakenAndFilledByTheWaiter() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Future<Object> failingInA =
        loadHeldInA(
            release,
            () -> {
              throw new IllegalStateException("the database is down (test)");
            });
    betweenLooks =
        nanos -> {
          release.countDown();
          assertThat(outcome(failingInA)).isInstanceOf(IllegalStateException.class);
        };
    AtomicInteger loadsInB = new AtomicInteger();

    Object got = get(usersB, countingLoader(loadsInB, "from B"));

    assertThat(got).isEqualTo("from B");
    assertThat(loadsInB.get()).as("loads in B").isEqualTo(1);
    assertThat(pauses.get()).as("B's pauses").isEqualTo(1);
    assertThat(node.get(key, ValueType.OBJECT)).as("B's fill landed").isEqualTo("from B");
    assertThat(waitsInB()).as("B's lease waits: served, expired").containsExactly(0L, 0L);
  }

  /** B's counts of lease waits that served another JVM's fill, and of those that ran out. */
  private Long[] waitsInB() {
    CacheStats stats = jvmB.cacheStats().get("users");
    return new Long[] {stats.leaseWaitServedCount(), stats.leaseWaitExpiredCount()};
  }

  /**
   * Starts a sync get in A whose load holds the lease until {@code release}, then gives "from A".
   */
  private Future<Object> loadHeldInA(CountDownLatch release) throws InterruptedException {
    return loadHeldInA(release, () -> "from A");
  }

  /** Starts a sync get in A whose load holds the lease until {@code release}, then {@code ends}. */
  private Future<Object> loadHeldInA(CountDownLatch release, ValueLoader<Object> ends)
      throws InterruptedException {
    CountDownLatch heldInA = new CountDownLatch(1);
    Future<Object> loading =
        pool.submit(
            () ->
                get(
                    usersA,
                    () -> {
                      heldInA.countDown();
                      assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
                      return ends.load();
                    }));
    assertThat(heldInA.await(30, TimeUnit.SECONDS)).as("A's load runs").isTrue();
    return loading;
  }

  /** What the call returned, or what it threw; waits for it (bounded). */
  private static Object outcome(Future<Object> call) throws InterruptedException {
    try {
      return call.get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the call did not end in 30 s", e);
    }
  }

  private static ValueLoader<Object> countingLoader(AtomicInteger loads, String value) {
    return () -> {
      loads.incrementAndGet();
      return value;
    };
  }

  private Object get(InterceptedCache cache, ValueLoader<Object> loader) throws Exception {
    try {
      return cache.get(key, ValueType.OBJECT, loader, true, false);
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }
}
