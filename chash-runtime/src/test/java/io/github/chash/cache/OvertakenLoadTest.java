package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.ValueLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The callers that joined a sync load whose fill did not land (issue 42): its lease was found gone
 * (another JVM's write overtook it), or the fill failed or timed out. They never take its value,
 * and they share one more load rather than each load for itself: a hot key's joiners were a herd
 * under node timeouts. One in-memory node with the conditional calls stands for a Redis server.
 */
class OvertakenLoadTest {
  private static final int JOINERS = 8;

  private final LeasingNode node = new LeasingNode();
  private final ShardedCacheManager manager =
      ShardedCaches.builder().node(node, 1).cache("users", null).scheduleProbes(false).build();
  private final InterceptedCache users = InterceptedCache.of(manager.cache("users"));
  private final String key = users.routingKey("hot", "T.m(k)");
  private final ExecutorService pool = Executors.newFixedThreadPool(JOINERS + 1);
  private final AtomicInteger loads = new AtomicInteger();
  private final AtomicReference<String> database = new AtomicReference<>("v1");

  @AfterEach
  void close() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    manager.close();
  }

  /**
   * The first load's fill times out, landed or not: its outcome is unknown, so the key is marked
   * and reads as a miss in this JVM, and its joiners must not take its value. One of them loads
   * again and the others join that load: two loads, not one per joiner.
   */
  @ParameterizedTest(name = "the fill landed: {0}")
  @ValueSource(booleans = {false, true})
  void joinersOfALoadWhoseFillTimedOut_shareOneMoreLoad(boolean landed) throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch secondRound = new CountDownLatch(1);
    Future<Object> first = firstLoad(release);
    node.failNextFill(landed);
    List<Future<Object>> joined = joiners(() -> secondRound.await());
    release.countDown();
    assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("v1");
    // the second round: one joiner loads (held on the gate), the others wait on its load
    InFlightLoads inFlight = ((RoutedCache) manager.cache("users")).inFlight();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (loads.get() <= 2 && System.nanoTime() < deadline) {
      InFlightLoads.Load again = inFlight.running(key);
      if (loads.get() == 2 && again != null && again.getNumberOfDependents() == JOINERS - 1) {
        break;
      }
      Thread.onSpinWait();
    }
    secondRound.countDown();

    for (Future<Object> result : joined) {
      assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo("v1");
    }
    assertThat(loads.get()).as("loader runs: the first, and one the joiners share").isEqualTo(2);
  }

  /**
   * Fleet simulation seed 4120415584, with a herd: another JVM evicts the key while the first load
   * runs on v1, the database moves on to v2, and then callers miss and join the load. Its fill
   * finds its lease gone; the joiners began after the evict, so v1 would be older than the last
   * write completed before they began. They get v2, from one more load.
   */
  @Test
  void joinersOfALoadAnotherJvmsEvictOvertook_neverTakeItsValue() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Future<Object> first = firstLoad(release);
    node.evict(key); // another JVM's evict: the lease is gone
    database.set("v2");
    List<Future<Object>> joined = joiners(() -> {});
    release.countDown();

    assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("v1");
    for (Future<Object> result : joined) {
      assertThat(result.get(30, TimeUnit.SECONDS)).as("a joiner's value").isEqualTo("v2");
    }
    assertThat(loads.get()).as("loader runs").isEqualTo(2);
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isEqualTo("v2");
  }

  /**
   * Another JVM puts v2 over the lease after the callers joined: the next round's look finds it,
   * and nothing loads again.
   */
  @Test
  void joinersOfALoadAnotherJvmsPutOvertook_takeThatPut() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Future<Object> first = firstLoad(release);
    List<Future<Object>> joined = joiners(() -> {});
    database.set("v2");
    node.put(key, "v2", null); // another JVM's put replaces the lease
    release.countDown();

    assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("v1");
    for (Future<Object> result : joined) {
      assertThat(result.get(30, TimeUnit.SECONDS)).as("a joiner's value").isEqualTo("v2");
    }
    assertThat(loads.get()).as("loader runs").isEqualTo(1);
  }

  /**
   * The same rule for a refresh-ahead reload (issue 42): a hit near its expiry starts a reload of
   * v1; another JVM writes v2 to the database and evicts the key while it runs; callers that begin
   * after the evict miss and join the reload. Its fill finds the entry it refreshed gone, so the
   * reload was overtaken: the joiners get v2, from one more load, never the reload's v1.
   */
  @Test
  void joinersOfARefreshAnotherJvmsEvictOvertook_neverTakeItsValue() throws Throwable {
    java.util.Queue<Runnable> reloads = new java.util.concurrent.ConcurrentLinkedQueue<>();
    LeasingNode refreshed = new LeasingNode();
    try (ShardedCacheManager refreshing =
        ShardedCaches.builder()
            .node(refreshed, 1)
            .cache(
                new io.github.chash.config.CacheConfig(
                    "users", Duration.ofSeconds(10), 0, 0.2, null))
            .refreshExecutor(reloads::add)
            .scheduleProbes(false)
            .build()) {
      InterceptedCache cache = InterceptedCache.of(refreshing.cache("users"));
      String hot = cache.routingKey("hot", "T.m(k)");
      refreshed.put(hot, "v1", null);
      refreshed.ttlLeft = Duration.ofSeconds(1); // within the last 20% of its 10 s
      CountDownLatch loading = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      ValueLoader<Object> reloader =
          loader(
              () -> {
                loading.countDown();
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
              });
      assertThat(cache.get(hot, ValueType.OBJECT, reloader, true, false)).isEqualTo("v1");
      Runnable reload = reloads.poll();
      assertThat(reload).as("the hit started a reload").isNotNull();
      Future<?> reloading = pool.submit(reload);
      assertThat(loading.await(30, TimeUnit.SECONDS)).as("the reload's loader runs").isTrue();

      database.set("v2");
      refreshed.evict(hot); // another JVM's evict, after the reload read v1
      List<Future<Object>> joined = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < JOINERS; i++) {
        joined.add(
            pool.submit(
                () -> {
                  synchronized (threads) {
                    threads.add(Thread.currentThread());
                  }
                  try {
                    return cache.get(hot, ValueType.OBJECT, loader(() -> {}), true, false);
                  } catch (Exception | Error e) {
                    throw e;
                  } catch (Throwable t) {
                    throw new IllegalStateException(t);
                  }
                }));
      }
      Awaitility.await("every joiner waiting")
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(1))
          .forever() // unbounded, as before
          .until(() -> allWaiting(threads));
      release.countDown();
      reloading.get(30, TimeUnit.SECONDS);

      for (Future<Object> result : joined) {
        assertThat(result.get(30, TimeUnit.SECONDS)).as("a joiner's value").isEqualTo("v2");
      }
      assertThat(loads.get()).as("loader runs: the reload, and one the joiners share").isEqualTo(2);
    }
  }

  /** {@code loadFuture} keeps the same rule: its joiners of a failed fill share one more load. */
  @Test
  void futureJoinersOfALoadWhoseFillTimedOut_shareOneMoreLoad() throws Throwable {
    CompletableFuture<Object> slow = new CompletableFuture<>();
    List<CompletableFuture<Object>> pending = new ArrayList<>();
    AtomicInteger starts = new AtomicInteger();
    users.loadFuture(
        key,
        ValueType.OBJECT,
        () -> {
          starts.incrementAndGet();
          return slow;
        },
        true,
        v -> true);
    List<CompletionStage<Object>> joined = new ArrayList<>();
    for (int i = 0; i < JOINERS; i++) {
      joined.add(
          users.loadFuture(
              key,
              ValueType.OBJECT,
              () -> {
                starts.incrementAndGet();
                CompletableFuture<Object> own = new CompletableFuture<>();
                synchronized (pending) {
                  pending.add(own);
                }
                return own;
              },
              true,
              v -> true));
    }
    assertThat(starts.get()).as("futures started while the first runs").isEqualTo(1);
    node.failNextFill(false);
    slow.complete("v1");
    // one joiner leads the next round; the others joined its future
    assertThat(starts.get()).as("futures started after the failed fill").isEqualTo(2);
    synchronized (pending) {
      assertThat(pending).hasSize(1);
      pending.get(0).complete("v1 again");
    }
    for (CompletionStage<Object> result : joined) {
      assertThat(result.toCompletableFuture().get(30, TimeUnit.SECONDS)).isEqualTo("v1 again");
    }
  }

  private Future<Object> firstLoad(CountDownLatch release) throws InterruptedException {
    CountDownLatch loading = new CountDownLatch(1);
    Future<Object> first =
        pool.submit(
            () ->
                get(
                    loader(
                        () -> {
                          loading.countDown();
                          assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
                        })));
    assertThat(loading.await(30, TimeUnit.SECONDS)).as("the first load runs").isTrue();
    return first;
  }

  /** Starts the joiners; returns once each waits on the running load. */
  private List<Future<Object>> joiners(Step load) {
    List<Future<Object>> results = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < JOINERS; i++) {
      results.add(
          pool.submit(
              () -> {
                synchronized (threads) {
                  threads.add(Thread.currentThread());
                }
                return get(loader(load));
              }));
    }
    Awaitility.await("every joiner waiting")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(1))
        .forever() // unbounded, as before
        .until(() -> allWaiting(threads));
    return results;
  }

  /** A sync get of the key through the loader. */
  private Object get(ValueLoader<Object> loader) throws Exception {
    try {
      return users.get(key, ValueType.OBJECT, loader, true, false);
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  private static boolean allWaiting(List<Thread> threads) {
    synchronized (threads) {
      return threads.size() == JOINERS
          && threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING);
    }
  }

  private interface Step {
    void run() throws Exception;
  }

  /** Reads the database, then runs {@code then}: the loader of a caller. */
  private ValueLoader<Object> loader(Step then) {
    return () -> {
      loads.incrementAndGet();
      String read = database.get();
      then.run();
      return read;
    };
  }
}
