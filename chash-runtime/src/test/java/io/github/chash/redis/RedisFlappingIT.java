package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Issue 11's flapping owner: one of three real servers is killed and restarted every 500 ms for 20
 * s (down for 250 ms, long enough to be ejected, or for 20 ms, too short for it) while 4 threads
 * read, write and evict through the cache, each thread checking every hit of its own keys against
 * the last version it wrote. The promise: no stale read, no exception.
 */
class RedisFlappingIT {
  private static final Duration RUN = Duration.ofSeconds(20);
  private static final long FLAP_MILLIS = 500;
  private static final int THREADS = 4;
  private static final int KEYS_PER_THREAD = 60;
  private static final ValueType STRING = ValueType.of(String.class);

  private static RedisFleet fleet;

  @BeforeAll
  static void start() {
    fleet = RedisFleet.start(3);
  }

  @AfterAll
  static void stop() {
    fleet.close();
  }

  @BeforeEach
  void reset() {
    fleet.reset();
  }

  @RepeatedTest(5)
  void flappingNode_noStaleReadAndNoCallerException(RepetitionInfo repetition) throws Exception {
    try (ShardedCacheManager manager =
        fleet.manager("{ failureLimit: 3, retryAfter: 1s, timeout: 100ms, onRejoin: flush }")) {
      ShardedCache users = manager.cache("users");
      RedisServerProcess victim = fleet.server("r2");
      AtomicBoolean running = new AtomicBoolean(true);
      List<Worker> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        workers.add(new Worker(t, users, running));
      }
      workers.forEach(Thread::start);
      long deadline = System.nanoTime() + RUN.toNanos();
      int kills = 0;
      try {
        while (System.nanoTime() < deadline) {
          // every other outage is too short for an ejection: the node comes back, empty, while
          // writes that failed on it are still the last ones
          long down = kills % 2 == 0 ? FLAP_MILLIS / 2 : 20;
          Thread.sleep(FLAP_MILLIS - down);
          victim.kill();
          kills++;
          Thread.sleep(down);
          victim.restart();
        }
      } finally {
        running.set(false);
        for (Worker w : workers) {
          w.join(30_000);
        }
        if (!victim.isRunning()) {
          victim.restart();
        }
      }
      long calls = workers.stream().mapToLong(w -> w.calls).sum();
      long hits = workers.stream().mapToLong(w -> w.hits).sum();
      long slowest = workers.stream().mapToLong(w -> w.slowestNanos).max().orElse(0);
      List<String> stale = new ArrayList<>();
      List<String> thrown = new ArrayList<>();
      workers.forEach(w -> stale.addAll(w.stale));
      workers.forEach(w -> thrown.addAll(w.thrown));
      CacheStats node = manager.nodeStats().get("r2");
      System.out.printf(
          "%n=== flapping r2, repetition %d of %d: %d kills in %d s, %d calls, %d hits,"
              + " %d ejections, %d node errors, slowest call %.1f ms, stale reads %d,"
              + " caller exceptions %d%n",
          repetition.getCurrentRepetition(),
          repetition.getTotalRepetitions(),
          kills,
          RUN.toSeconds(),
          calls,
          hits,
          node.ejectionCount(),
          node.errorCount(),
          slowest / 1e6,
          stale.size(),
          thrown.size());

      assertThat(thrown).as("exceptions that reached callers").isEmpty();
      assertThat(stale).as("reads older than the thread's own last write").isEmpty();
      assertThat(hits).as("the cache served hits all along").isPositive();
      assertThat(node.ejectionCount()).as("the flapping node was ejected").isPositive();
    }
  }

  /**
   * One caller: its own keys, a "database" of their current versions, and a check of every hit. A
   * put or evict first moves the database on (as a service writes its store, then the cache), so a
   * hit must be exactly the database's version.
   */
  private static final class Worker extends Thread {
    private final ShardedCache users;
    private final AtomicBoolean running;
    private final SplittableRandom random;
    private final String[] keys = new String[KEYS_PER_THREAD];
    private final Map<String, Long> database = new HashMap<>();
    private final Queue<String> stale = new ConcurrentLinkedQueue<>();
    private final Queue<String> thrown = new ConcurrentLinkedQueue<>();
    private long calls;
    private long hits;
    private long slowestNanos;
    private final AtomicLong versions = new AtomicLong();

    Worker(int index, ShardedCache users, AtomicBoolean running) {
      super("flapping-worker-" + index);
      this.users = users;
      this.running = running;
      this.random = new SplittableRandom(index);
      for (int i = 0; i < keys.length; i++) {
        keys[i] = users.routingKey("t" + index + "-k" + i, "test");
        database.put(keys[i], 0L);
      }
    }

    @Override
    public void run() {
      while (running.get()) {
        String key = keys[random.nextInt(keys.length)];
        int op = random.nextInt(10);
        long start = System.nanoTime();
        try {
          if (op < 3) {
            long v = versions.incrementAndGet();
            database.put(key, v);
            users.put(key, key + "#" + v);
          } else if (op < 4) {
            database.put(key, versions.incrementAndGet());
            users.evict(key);
          } else {
            String expected = key + "#" + database.get(key);
            Object cached = users.getIfPresent(key, STRING);
            if (cached != null) {
              hits++;
              if (!cached.equals(expected)) {
                stale.add("read " + cached + " after writing " + expected);
              }
            } else {
              users.load(key, STRING, () -> expected, false, false);
            }
          }
        } catch (Throwable e) {
          thrown.add(e.toString());
        }
        slowestNanos = Math.max(slowestNanos, System.nanoTime() - start);
        calls++;
      }
    }
  }
}
