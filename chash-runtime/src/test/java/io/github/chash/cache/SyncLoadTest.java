package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.NodeConfig;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.ValueLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SyncLoadTest {
  private static final int THREADS = 8;

  private final ShardedCacheManager manager =
      ShardedCaches.builder()
          .node(NodeConfig.local("a"))
          .node(NodeConfig.local("b"))
          .cache("users", null)
          .build();
  private final InterceptedCache users = InterceptedCache.of(manager.cache("users"));
  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

  @AfterEach
  void close() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    manager.close();
  }

  /** Starts 8 callers, lets the loader finish only once all of them are parked in the cache. */
  private List<Future<Object>> eightCallers(ValueLoader<Object> loader, CountDownLatch release)
      throws InterruptedException {
    String key = users.routingKey("k", "T.m(k)");
    List<Future<Object>> results = new ArrayList<>();
    List<Thread> callers = new ArrayList<>();
    CountDownLatch started = new CountDownLatch(THREADS);
    for (int i = 0; i < THREADS; i++) {
      results.add(
          pool.submit(
              () -> {
                synchronized (callers) {
                  callers.add(Thread.currentThread());
                }
                started.countDown();
                try {
                  return users.get(key, ValueType.OBJECT, loader, true, false);
                } catch (Throwable t) {
                  return t;
                }
              }));
    }
    started.await();
    // Every caller is either the loader, blocked on `release`, or a waiter parked on its load.
    while (!allParked(callers)) {
      Thread.onSpinWait();
    }
    release.countDown();
    return results;
  }

  private static boolean allParked(List<Thread> callers) {
    synchronized (callers) {
      return callers.size() == THREADS
          && callers.stream().allMatch(t -> t.getState() == Thread.State.WAITING);
    }
  }

  @Test
  void load_syncRunsTheLoaderOnceForConcurrentMisses() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    Object value = new Object();
    List<Future<Object>> results =
        eightCallers(
            () -> {
              runs.incrementAndGet();
              release.await();
              return value;
            },
            release);
    for (Future<Object> f : results) {
      assertThat(f.get(10, TimeUnit.SECONDS)).isSameAs(value);
    }
    assertThat(runs).hasValue(1);
    assertThat(users.stats().loadCount()).isEqualTo(1);
    assertThat(users.stats().missCount()).isEqualTo(THREADS);
    assertThat(users.getIfPresent(users.routingKey("k", "T.m(k)"), ValueType.OBJECT))
        .isSameAs(value);
  }

  @Test
  void load_syncLoaderExceptionReachesEveryWaiterAndNothingIsCached() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    Exception boom = new Exception("boom");
    List<Future<Object>> results =
        eightCallers(
            () -> {
              runs.incrementAndGet();
              release.await();
              throw boom;
            },
            release);
    for (Future<Object> f : results) {
      assertThat(f.get(10, TimeUnit.SECONDS)).isSameAs(boom);
    }
    assertThat(runs).hasValue(1);
    assertThat(users.stats().loadFailureCount()).isEqualTo(1);
    assertThat(users.getIfPresent(users.routingKey("k", "T.m(k)"), ValueType.OBJECT)).isNull();
  }

  @Test
  void load_recursiveSyncLoadOfTheSameKeyFailsInsteadOfHanging() {
    String key = users.routingKey("self", "T.m(k)");
    assertThatThrownBy(
            () ->
                users.get(
                    key,
                    ValueType.OBJECT,
                    () -> users.get(key, ValueType.OBJECT, () -> "inner", true, false),
                    true,
                    false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("recursive load: the loader of key \"users:self\" asked for the same key");
  }
}
