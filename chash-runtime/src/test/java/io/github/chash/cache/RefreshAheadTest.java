package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.ValueLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Refresh-ahead ({@code ttl: 2s, refreshAhead: 20%}) on local nodes with a fake clock: 8 threads
 * read one hot key in steps of 100 ms for 30 s of the clock. The reloads go to an executor the test
 * runs by hand between steps, so a reload that would run twice, or a caller that would wait for the
 * loader, shows deterministically.
 */
class RefreshAheadTest {
  private static final int THREADS = 8;
  private static final int READS_PER_THREAD = 50;
  private static final Duration STEP = Duration.ofMillis(100);
  private static final Duration TTL = Duration.ofSeconds(2);

  private final FakeTicker ticker = new FakeTicker();
  private final Queue<Runnable> reloads = new ConcurrentLinkedQueue<>();
  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
  private final ShardedCacheManager manager =
      ShardedCaches.builder()
          .node(NodeConfig.local("a"))
          .node(NodeConfig.local("b"))
          .cache(new CacheConfig("users", TTL, 0, 0.2, null))
          .ticker(ticker)
          .refreshExecutor(reloads::add)
          .build();
  private final InterceptedCache users = InterceptedCache.of(manager.cache("users"));

  @AfterEach
  void close() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    manager.close();
  }

  @Test
  void hotKey_eightReaders_oneBackgroundReloadPerRefreshInterval_noCallerWaits() throws Throwable {
    String key = users.routingKey("hot", "T.m(hot)");
    AtomicInteger version = new AtomicInteger();
    List<String> loaderThreads = new ArrayList<>();
    List<Long> reloadedAtMillis = new ArrayList<>();
    Thread testThread = Thread.currentThread();
    ValueLoader<Object> loader =
        () -> {
          synchronized (loaderThreads) {
            loaderThreads.add(Thread.currentThread().getName());
          }
          if (Thread.currentThread() == testThread && version.get() > 0) { // a reload
            reloadedAtMillis.add(ticker.read() / 1_000_000);
          }
          return "v" + version.incrementAndGet();
        };

    // the first load: a miss, the caller runs the loader
    assertThat(users.get(key, ValueType.OBJECT, loader, true, false)).isEqualTo("v1");

    long steps = Duration.ofSeconds(30).dividedBy(STEP);
    for (long step = 1; step <= steps; step++) {
      ticker.advance(STEP);
      int before = version.get();
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<Object>>> readers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        readers.add(
            pool.submit(
                () -> {
                  start.await();
                  List<Object> seen = new ArrayList<>();
                  for (int i = 0; i < READS_PER_THREAD; i++) {
                    try {
                      seen.add(users.get(key, ValueType.OBJECT, loader, true, false));
                    } catch (Throwable e) {
                      seen.add(e);
                    }
                  }
                  return seen;
                }));
      }
      start.countDown();
      for (Future<List<Object>> reader : readers) {
        // every read is a hit on the current value: no caller waits for a load
        assertThat(reader.get(10, TimeUnit.SECONDS)).containsOnly("v" + before);
      }
      // 400 reads in the last 20% of the TTL start at most one reload
      assertThat(reloads.size()).as("reloads queued at step %d", step).isLessThanOrEqualTo(1);
      Runnable reload;
      while ((reload = reloads.poll()) != null) {
        reload.run();
      }
    }

    // one reload every 1.6 s of the clock (the TTL less its last 20%), each as soon as the entry
    // entered that part, and none on a caller's thread after the first load
    assertThat(reloadedAtMillis).hasSizeGreaterThanOrEqualTo(18);
    for (int i = 0; i < reloadedAtMillis.size(); i++) {
      assertThat(reloadedAtMillis.get(i)).isEqualTo(1600L * (i + 1));
    }
    assertThat(loaderThreads)
        .hasSize(1 + reloadedAtMillis.size())
        .filteredOn(name -> name.startsWith("pool-"))
        .isEmpty();
    CacheStats stats = users.stats();
    assertThat(stats.missCount()).isEqualTo(1);
    assertThat(stats.loadCount()).isEqualTo(1 + reloadedAtMillis.size());
    assertThat(stats.hitCount()).isEqualTo(steps * THREADS * READS_PER_THREAD);
    System.out.printf(
        "refresh-ahead: %d reads by %d threads over 30 s of the clock, 1 miss, %d reloads at %s ms%n",
        stats.requestCount(), THREADS, reloadedAtMillis.size(), reloadedAtMillis);
  }

  @Test
  void refresh_writeBeganMeanwhile_reloadDoesNotOverwriteIt() throws Throwable {
    String key = users.routingKey("k", "T.m(k)");
    AtomicInteger version = new AtomicInteger();
    ValueLoader<Object> loader = () -> "loaded" + version.incrementAndGet();
    users.get(key, ValueType.OBJECT, loader, true, false);
    ticker.advance(Duration.ofMillis(1700));
    assertThat(users.get(key, ValueType.OBJECT, loader, true, false)).isEqualTo("loaded1");
    assertThat(reloads).hasSize(1);
    // the reload looks and loads, but a put lands before its fill: the put must stay
    Runnable reload = reloads.poll();
    users.put(key, "put");
    reload.run();
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isEqualTo("put");
  }
}
