package io.github.chash.redis;

import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.config.ChashConfigs;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * One JVM of {@link HotKeyHerdIT}: {@value #THREADS} threads call {@code get} of one hot key with a
 * loader that takes {@value #LOADER_MILLIS} ms, for the given time, and report when each load
 * started (wall clock, the same on every process of the machine) and how many ran at once at most.
 *
 * <p>Lines it prints: {@code ready}, then, once the parent has answered a line, {@code done gets=N
 * errors=N loads=N overlap=N starts=T,T,...}.
 *
 * <p>Arguments: the path of a {@code chash.yaml} with a cache {@code hot}, and the seconds to run.
 */
public final class HotKeyWorker {
  static final int THREADS = 50;
  static final int LOADER_MILLIS = 200;

  private HotKeyWorker() {}

  public static void main(String[] args) throws Exception {
    String yaml = Files.readString(Path.of(args[0]));
    long runNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[1]));
    Queue<Long> starts = new ConcurrentLinkedQueue<>();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger overlap = new AtomicInteger();
    AtomicLong gets = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    String stats;
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")))) {
      TypedCache<String, String> cache = manager.cache("hot").typed(String.class, String.class);
      System.out.println("ready");
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      long deadline = System.nanoTime() + runNanos;
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        Thread t =
            new Thread(
                () -> {
                  while (System.nanoTime() < deadline) {
                    try {
                      cache.get(
                          "hot",
                          k -> {
                            long started = System.currentTimeMillis();
                            starts.add(started);
                            overlap.accumulateAndGet(running.incrementAndGet(), Math::max);
                            try {
                              Thread.sleep(LOADER_MILLIS); // the loader's own latency
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                            } finally {
                              running.decrementAndGet();
                            }
                            return "loaded at " + started;
                          });
                    } catch (RuntimeException e) {
                      errors.incrementAndGet();
                    }
                    gets.incrementAndGet();
                  }
                },
                "hot-" + i);
        t.start();
        threads.add(t);
      }
      for (Thread t : threads) {
        t.join();
      }
      var hot = manager.cache("hot").stats();
      stats = " leasesLost=" + hot.leaseLostCount() + " nodeErrors=" + hot.errorCount();
    }
    System.out.println(
        "done gets="
            + gets.get()
            + " errors="
            + errors.get()
            + " loads="
            + starts.size()
            + " overlap="
            + overlap.get()
            + stats
            + " starts="
            + starts.stream().map(String::valueOf).collect(Collectors.joining(",")));
  }
}
