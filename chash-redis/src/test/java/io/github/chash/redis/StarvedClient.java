package io.github.chash.redis;

import io.github.chash.cache.CacheStats;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The client JVM of {@link StarvedClientIT}: run under a CPU quota, with one busy application
 * thread, it makes a cold-start burst of {@code get(key, loader)} calls over a few keys on real
 * Redis servers, and reports on standard output what the loader and the failure policy did. With a
 * fault, it then keeps calling while the parent kills or freezes one server, and reports how many
 * failed calls and how long it took to eject it.
 *
 * <p>Lines it prints: {@code burst loads=N ejected=[ids] errors=N ms=N causes={node cause=N}}, then
 * with a fault {@code fault?} (the parent breaks a server and answers a line) and {@code ejected
 * id=ID calls=N ms=N} or {@code not-ejected calls=N}.
 *
 * <p>Arguments: {@code virtual|platform}, the path of a {@code chash.yaml}, the id of the node a
 * fault hits or {@code -} for none.
 */
public final class StarvedClient {
  static final int CALLERS = 32;
  static final int CALLS = 2_000;
  static final int KEYS = 200;

  /**
   * Each node's failed calls by their innermost cause ({@code r1 TimeoutException}), as the failure
   * policy logged them: a burst's report says why a node was blamed, not only that it was.
   */
  private static final Map<String, Integer> FAILURE_CAUSES = new ConcurrentHashMap<>();

  private static final Pattern NODE = Pattern.compile("cache node \"([^\"]+)\"");

  private StarvedClient() {}

  public static void main(String[] args) throws Exception {
    showNodeFailures();
    boolean virtual = args[0].equals("virtual");
    String yaml = Files.readString(Path.of(args[1]));
    String faulty = args[2];
    Thread busy = busyThread();
    busy.start();
    ExecutorService callers = callers(virtual);
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")))) {
      TypedCache<String, String> cache = manager.cache("users").typed(String.class, String.class);
      AtomicInteger loads = new AtomicInteger();
      long start = System.nanoTime();
      AtomicInteger next = new AtomicInteger();
      run(
          callers,
          () -> {
            for (int i = next.getAndIncrement(); i < CALLS; i = next.getAndIncrement()) {
              String key = "user:" + (i % KEYS);
              cache.get(key, k -> "value of " + k + " " + loads.incrementAndGet());
            }
          });
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      System.out.println(
          "burst loads="
              + loads.get()
              + " ejected="
              + ejected(manager)
              + " errors="
              + errors(manager)
              + " ms="
              + ms
              + " causes="
              + new TreeMap<>(FAILURE_CAUSES));
      if (!faulty.equals("-")) {
        fault(manager, cache, callers, faulty);
      }
    } finally {
      callers.shutdownNow();
    }
    busy.interrupt();
  }

  /**
   * Keeps all callers calling while the parent breaks the node; stops at its ejection, or after 30
   * s without one.
   */
  private static void fault(
      ShardedCacheManager manager,
      TypedCache<String, String> cache,
      ExecutorService callers,
      String faulty)
      throws Exception {
    long errorsBefore = manager.nodeStats().get(faulty).errorCount();
    System.out.println("fault?");
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    long start = System.nanoTime();
    long deadline = start + TimeUnit.SECONDS.toNanos(30);
    AtomicLong ejectedAt = new AtomicLong();
    AtomicInteger next = new AtomicInteger();
    Thread watch =
        new Thread(
            () -> {
              while (System.nanoTime() < deadline
                  && manager.nodeStats().get(faulty).ejectionCount() == 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
              }
              ejectedAt.set(System.nanoTime());
            });
    watch.start();
    run(
        callers,
        () -> {
          while (ejectedAt.get() == 0) {
            int i = next.getAndIncrement();
            cache.get("user:" + (i % KEYS), k -> "value of " + k);
          }
        });
    boolean ejected = manager.nodeStats().get(faulty).ejectionCount() > 0;
    // the watch gives up after 30 s: an ejection after that is reported with the time it was seen
    long ejectedNanos = ejected ? Math.max(ejectedAt.get(), System.nanoTime()) : 0;
    if (ejected && ejectedAt.get() < deadline) {
      ejectedNanos = ejectedAt.get();
    }
    long calls = manager.nodeStats().get(faulty).errorCount() - errorsBefore;
    System.out.println(
        !ejected
            ? "not-ejected calls=" + calls
            : "ejected id="
                + faulty
                + " calls="
                + calls
                + " ms="
                + TimeUnit.NANOSECONDS.toMillis(ejectedNanos - start));
  }

  private static void run(ExecutorService callers, Runnable caller) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(CALLERS);
    for (int c = 0; c < CALLERS; c++) {
      callers.execute(
          () -> {
            try {
              caller.run();
            } finally {
              done.countDown();
            }
          });
    }
    if (!done.await(5, TimeUnit.MINUTES)) {
      throw new IllegalStateException("callers did not finish within 5 minutes");
    }
  }

  private static List<String> ejected(ShardedCacheManager manager) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, CacheStats> node : manager.nodeStats().entrySet()) {
      if (node.getValue().ejectionCount() > 0) {
        out.add(node.getKey());
      }
    }
    return out;
  }

  private static long errors(ShardedCacheManager manager) {
    return manager.nodeStats().values().stream().mapToLong(CacheStats::errorCount).sum();
  }

  /** Virtual threads need JDK 21; the class is compiled for 17, so they are found by name. */
  private static ExecutorService callers(boolean virtual) throws ReflectiveOperationException {
    if (!virtual) {
      return Executors.newFixedThreadPool(CALLERS);
    }
    return (ExecutorService)
        Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
  }

  /** Node failures (the failure policy's debug lines) on standard error, each with its causes. */
  private static void showNodeFailures() {
    Logger policy = Logger.getLogger("io.github.chash.cache.FailurePolicy");
    policy.setLevel(Level.FINE);
    policy.addHandler(
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            StringBuilder line = new StringBuilder("client: ").append(record.getMessage());
            Throwable innermost = null;
            for (Throwable t = record.getThrown(); t != null; t = t.getCause()) {
              line.append(" <- ").append(t);
              innermost = t;
            }
            System.err.println(line);
            Matcher node = NODE.matcher(record.getMessage());
            if (innermost != null && node.find()) {
              FAILURE_CAUSES.merge(
                  node.group(1) + " " + innermost.getClass().getSimpleName(), 1, Integer::sum);
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
  }

  /** The application's own work: a thread that keeps one CPU busy. */
  private static Thread busyThread() {
    Thread busy =
        new Thread(
            () -> {
              long x = 1;
              while (!Thread.currentThread().isInterrupted()) {
                x = x * 6364136223846793005L + 1442695040888963407L;
              }
              if (x == 42) {
                System.out.println();
              }
            },
            "busy");
    busy.setDaemon(true);
    return busy;
  }
}
