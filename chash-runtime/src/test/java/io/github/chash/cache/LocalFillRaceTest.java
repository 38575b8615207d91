package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A fill after a load racing a put, on local shards (no server): within one JVM a read returns the
 * last completed write of its key, or a miss. A fill that checked for writes, then stored its
 * loaded value after a put of the key completed, makes the older value readable until it deletes it
 * again.
 */
class LocalFillRaceTest {
  private static final Duration STEP = Duration.ofSeconds(5);

  /**
   * The interleaving itself, driven by latches in the node: a load's fill reaches the node's put, a
   * put of a newer value completes, then the fill's value lands, and a read is made before the fill
   * returns. The read (made after the newer put completed) must return it or miss.
   */
  @Test
  void fillLandingAfterACompletedPut_theReadAfterThePutNeverReturnsTheLoadedValue()
      throws Exception {
    CountDownLatch fillAtPut = new CountDownLatch(1);
    CountDownLatch putDone = new CountDownLatch(1);
    CountDownLatch fillWrote = new CountDownLatch(1);
    CountDownLatch readDone = new CountDownLatch(1);
    HookedNode node =
        new HookedNode(
            CacheNodes.local("a", 1000),
            value -> {
              if (!"loaded".equals(value)) {
                return null;
              }
              fillAtPut.countDown();
              await(putDone);
              return () -> {
                fillWrote.countDown();
                await(readDone);
              };
            });
    try (ShardedCacheManager manager =
        ShardedCaches.builder().node(node, 1).cache("users", Duration.ofMinutes(10)).build()) {
      TypedCache<String, String> users = manager.cache("users").typed(String.class, String.class);
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread filler = thread("filler", () -> users.get("k", key -> "loaded"), failed);
      assertThat(fillAtPut.await(STEP.toSeconds(), TimeUnit.SECONDS))
          .as("the load's fill reached the node's put")
          .isTrue();
      Thread writer =
          thread(
              "writer",
              () -> {
                users.put("k", "written");
                putDone.countDown();
              },
              failed);
      String readAfterPut = null;
      boolean putCompletedFirst = await(putDone, writer);
      if (putCompletedFirst) {
        fillWrote.await(STEP.toSeconds(), TimeUnit.SECONDS);
        readAfterPut = users.getIfPresent("k");
      }
      readDone.countDown();
      filler.join(STEP.toMillis() * 3);
      writer.join(STEP.toMillis() * 3);
      String last = users.getIfPresent("k");
      System.out.printf(
          "%n=== a fill racing a put on a local shard: the put %s before the fill landed; read"
              + " after the put: %s; read at the end: %s%n",
          putCompletedFirst ? "completed" : "did not complete", readAfterPut, last);
      assertThat(failed.get()).as("exception in a caller").isNull();
      assertThat(readAfterPut).as("read after the put completed").isIn("written", null);
      assertThat(last).as("read at the end").isIn("written", null);
    }
  }

  /**
   * 8 threads {@code get(key, loader)} with a fast loader (reading the "database") on 64 keys of a
   * cache with a 5 ms TTL (so loads keep happening: about 2,000 a run), while one writer puts a
   * newer version of a key every 0 to 2 ms (paced by parking, never to force an overlap): 100,000
   * calls, each checked against the last put that completed before it began. No read may be older.
   * The race needs a fill to be preempted in a window of a few instructions, so this rarely sees it
   * (the test above drives it); it guards the whole read path under contention.
   */
  @Test
  void loadersAgainstAPacedWriter_noReadOlderThanTheLastCompletedPut() throws Exception {
    int keys = 64;
    int threads = 8;
    int calls = 100_000;
    try (ShardedCacheManager manager =
        ShardedCaches.builder()
            .node(io.github.chash.config.NodeConfig.local("a"))
            .node(io.github.chash.config.NodeConfig.local("b"))
            .node(io.github.chash.config.NodeConfig.local("c"))
            .cache("users", Duration.ofMillis(5))
            .build()) {
      TypedCache<Integer, String> users = manager.cache("users").typed(Integer.class, String.class);
      AtomicLong[] database = new AtomicLong[keys];
      AtomicLong[] completed = new AtomicLong[keys];
      for (int k = 0; k < keys; k++) {
        database[k] = new AtomicLong();
        completed[k] = new AtomicLong();
      }
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong loads = new AtomicLong();
      AtomicLong puts = new AtomicLong();
      AtomicLong done = new AtomicLong();
      Queue<String> stale = new ConcurrentLinkedQueue<>();
      AtomicReference<Throwable> failed = new AtomicReference<>();
      CountDownLatch go = new CountDownLatch(1);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      Thread writer =
          thread(
              "writer",
              () -> {
                SplittableRandom random = new SplittableRandom(42);
                await(go);
                while (running.get() && System.nanoTime() < deadline) {
                  int k = random.nextInt(keys);
                  long v = database[k].incrementAndGet();
                  users.put(k, Long.toString(v));
                  completed[k].set(v);
                  puts.incrementAndGet();
                  long until = System.nanoTime() + random.nextLong(2_000_001);
                  for (long left = until - System.nanoTime(); left > 0; ) {
                    LockSupport.parkNanos(left);
                    left = until - System.nanoTime();
                  }
                }
              },
              failed);
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        SplittableRandom random = new SplittableRandom(t);
        readers.add(
            thread(
                "reader-" + t,
                () -> {
                  await(go);
                  for (int i = 0; i < calls / threads && System.nanoTime() < deadline; i++) {
                    int k = random.nextInt(keys);
                    long last = completed[k].get();
                    String got =
                        users.get(
                            k,
                            key -> {
                              loads.incrementAndGet();
                              return Long.toString(database[key].get());
                            });
                    if (Long.parseLong(got) < last) {
                      stale.add("key " + k + " read " + got + " after put " + last + " completed");
                    }
                    done.incrementAndGet();
                  }
                },
                failed));
      }
      long start = System.nanoTime();
      go.countDown();
      for (Thread reader : readers) {
        reader.join(TimeUnit.SECONDS.toMillis(90));
      }
      running.set(false);
      writer.join(TimeUnit.SECONDS.toMillis(10));
      System.out.printf(
          "%n=== %d threads get(key, loader) on %d keys against a writer putting every 0-2 ms:"
              + " %d calls, %d loads, %d puts in %.1f s; stale reads %d %s%n",
          threads,
          keys,
          done.get(),
          loads.get(),
          puts.get(),
          (System.nanoTime() - start) / 1e9,
          stale.size(),
          stale.stream().limit(3).toList());
      assertThat(failed.get()).as("exception in a caller").isNull();
      assertThat(stale).as("reads older than the last completed put").isEmpty();
    }
  }

  private interface Body {
    void run() throws Throwable;
  }

  private static Thread thread(String name, Body body, AtomicReference<Throwable> failed) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Throwable e) {
                failed.compareAndSet(null, e);
              }
            },
            name);
    t.start();
    return t;
  }

  /** Waits at most {@link #STEP}; false if it did not come. */
  private static boolean await(CountDownLatch latch) {
    try {
      return latch.await(STEP.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Waits for the latch while the thread that counts it down runs: false if the thread ended or
   * {@link #STEP} passed without it (a put that waits for the fill cannot complete before it).
   */
  private static boolean await(CountDownLatch latch, Thread counter) throws InterruptedException {
    long deadline = System.nanoTime() + STEP.toNanos();
    while (System.nanoTime() < deadline) {
      if (latch.await(10, TimeUnit.MILLISECONDS)) {
        return true;
      }
      if (!counter.isAlive()) {
        return latch.getCount() == 0;
      }
    }
    return false;
  }

  /**
   * A local node whose {@code put} runs a hook first; the hook may return a step to run after the
   * value is stored, before {@code put} returns.
   */
  private static final class HookedNode implements CacheNode {
    private final CacheNode delegate;
    private final java.util.function.Function<Object, Runnable> beforePut;

    HookedNode(CacheNode delegate, java.util.function.Function<Object, Runnable> beforePut) {
      this.delegate = delegate;
      this.beforePut = beforePut;
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public Object get(String key, ValueType type) {
      return delegate.get(key, type);
    }

    @Override
    public void put(String key, Object value, Duration ttl) {
      Runnable after = beforePut.apply(value);
      delegate.put(key, value, ttl);
      if (after != null) {
        after.run();
      }
    }

    @Override
    public void evict(String key) {
      delegate.evict(key);
    }

    @Override
    public void clear() {
      delegate.clear();
    }

    @Override
    public void ping() {
      delegate.ping();
    }

    @Override
    public long estimatedSize() {
      return delegate.estimatedSize();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
