package io.github.chash.cache;

import io.github.chash.internal.cache.InterceptedCache;
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

/**
 * Callers that read, write and evict through a cache as a service would, each on keys of its own,
 * checking every hit against the last version it wrote: a put or evict first moves the caller's
 * "database" on (as a service writes its store, then the cache), so a hit must be exactly the
 * database's version. Counts stale reads, exceptions that reached the caller, hits and the slowest
 * call. For the fault and membership tests.
 */
public final class CheckedCallers {
  private static final ValueType STRING = ValueType.of(String.class);

  private final List<Caller> callers = new ArrayList<>();
  private final AtomicBoolean running = new AtomicBoolean(true);

  /** Starts {@code threads} callers on {@code keysPerCaller} keys each. */
  public static CheckedCallers start(InterceptedCache cache, int threads, int keysPerCaller) {
    CheckedCallers all = new CheckedCallers();
    for (int t = 0; t < threads; t++) {
      all.callers.add(new Caller(t, cache, keysPerCaller, all.running));
    }
    all.callers.forEach(Thread::start);
    return all;
  }

  /** Stops every caller, waiting for each to finish its call. */
  public void stop() throws InterruptedException {
    running.set(false);
    for (Caller c : callers) {
      c.join(Duration.ofSeconds(30).toMillis());
    }
  }

  public long calls() {
    return callers.stream().mapToLong(c -> c.calls).sum();
  }

  public long hits() {
    return callers.stream().mapToLong(c -> c.hits).sum();
  }

  public long slowestNanos() {
    return callers.stream().mapToLong(c -> c.slowestNanos).max().orElse(0);
  }

  /** Reads older than the caller's own last write, as "read X after writing Y". */
  public List<String> staleReads() {
    List<String> all = new ArrayList<>();
    callers.forEach(c -> all.addAll(c.stale));
    return all;
  }

  /** Exceptions that reached a caller. */
  public List<String> exceptions() {
    List<String> all = new ArrayList<>();
    callers.forEach(c -> all.addAll(c.thrown));
    return all;
  }

  private static final class Caller extends Thread {
    private final InterceptedCache cache;
    private final AtomicBoolean running;
    private final SplittableRandom random;
    private final String[] keys;
    private final Map<String, Long> database = new HashMap<>();
    private final Queue<String> stale = new ConcurrentLinkedQueue<>();
    private final Queue<String> thrown = new ConcurrentLinkedQueue<>();
    private final AtomicLong versions = new AtomicLong();
    private volatile long calls;
    private volatile long hits;
    private volatile long slowestNanos;

    Caller(int index, InterceptedCache cache, int keyCount, AtomicBoolean running) {
      super("checked-caller-" + index);
      this.cache = cache;
      this.running = running;
      this.random = new SplittableRandom(index);
      this.keys = new String[keyCount];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = cache.routingKey("t" + index + "-k" + i, "test");
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
            cache.put(key, key + "#" + v);
          } else if (op < 4) {
            database.put(key, versions.incrementAndGet());
            cache.evict(key);
          } else {
            String expected = key + "#" + database.get(key);
            Object cached = cache.getIfPresent(key, STRING);
            if (cached != null) {
              hits++;
              if (!cached.equals(expected)) {
                stale.add("read " + cached + " after writing " + expected);
              }
            } else {
              cache.load(key, STRING, () -> expected, false, false);
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
