package io.github.chash.benchmarks.aspect;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The rows of {@link AspectHitBenchmark} (the hits also with two threads at once) measured in
 * thread CPU time instead of wall time: on a machine shared with other work (where JMH's wall-clock
 * errors exceed the scores), CPU time leaves out the time the thread waits for a core. Each path
 * runs {@value #OPS} calls per round after a warm-up; the median of {@value #ROUNDS} rounds is
 * printed with the ratios the issue asks for. A complement to the JMH run, not a replacement: it
 * does not guard against dead-code elimination beyond consuming each result.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * io.github.chash.benchmarks.aspect.AspectCpuTimeReport}.
 */
public final class AspectCpuTimeReport {
  static final int OPS = 2_000_000;
  static final int ROUNDS = 9;

  private AspectCpuTimeReport() {}

  /**
   * Prints the table.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    AspectHitBenchmark b = new AspectHitBenchmark();
    b.keys = 4096;
    b.setUp();
    try {
      String[] ids = b.ids;
      int mask = ids.length - 1;
      Map<String, IntFunction<Object>> paths = new LinkedHashMap<>();
      paths.put("caffeineHit", i -> b.caffeine.getIfPresent(ids[i & mask]));
      paths.put("caffeineNoExpiryHit", i -> b.caffeineNoExpiry.getIfPresent(ids[i & mask]));
      paths.put(
          "shardedCacheHit",
          i ->
              b.users.getIfPresent(
                  "users:" + ids[i & mask], io.github.chash.cache.ValueType.OBJECT));
      paths.put("wovenHit", i -> b.woven.find(ids[i & mask]));
      paths.put("springHit", i -> b.springService.find(ids[i & mask]));
      paths.put("unadvisedCall", i -> b.woven.absentDirect(ids[i & mask]));
      paths.put("wovenMiss", i -> b.woven.absent(ids[i & mask]));
      paths.put("springMiss", i -> b.springService.absent(ids[i & mask]));
      Map<String, Double> ns = new LinkedHashMap<>();
      Map<String, Double> ns2 = new LinkedHashMap<>();
      for (var path : paths.entrySet()) {
        ns.put(path.getKey(), median(path.getValue()));
      }
      for (String path : new String[] {"caffeineHit", "wovenHit", "springHit"}) {
        ns2.put(path, twoThreads(paths.get(path)));
      }
      System.out.printf("| path | ns/call, 1 thread | ns/call, 2 threads |%n|---|---:|---:|%n");
      ns.forEach(
          (k, v) ->
              System.out.printf(
                  "| %s | %.1f | %s |%n",
                  k, v, ns2.containsKey(k) ? String.format("%.1f", ns2.get(k)) : ""));
      System.out.printf(
          "%nwovenHit / caffeineHit = %.2f (target <= 3)%n"
              + "wovenHit / caffeineNoExpiryHit = %.2f%n"
              + "wovenHit / springHit = %.2f (target <= 0.5)%n"
              + "aspect's own hit cost (wovenHit - shardedCacheHit) = %.1f ns%n"
              + "miss-path overhead (wovenMiss - unadvisedCall) = %.1f ns; Spring's = %.1f ns%n"
              + "2 threads: wovenHit / caffeineHit = %.2f, wovenHit / springHit = %.2f%n",
          ns.get("wovenHit") / ns.get("caffeineHit"),
          ns.get("wovenHit") / ns.get("caffeineNoExpiryHit"),
          ns.get("wovenHit") / ns.get("springHit"),
          ns.get("wovenHit") - ns.get("shardedCacheHit"),
          ns.get("wovenMiss") - ns.get("unadvisedCall"),
          ns.get("springMiss") - ns.get("unadvisedCall"),
          ns2.get("wovenHit") / ns2.get("caffeineHit"),
          ns2.get("wovenHit") / ns2.get("springHit"));
    } finally {
      b.tearDown();
    }
  }

  /** Both threads run the path at once; the mean of their medians, each in its own CPU time. */
  private static double twoThreads(IntFunction<Object> path) {
    double[] result = new double[2];
    Thread[] threads = new Thread[2];
    for (int t = 0; t < 2; t++) {
      int slot = t;
      int offset = t * 1_000;
      threads[t] = new Thread(() -> result[slot] = median(i -> path.apply(i + offset)));
      threads[t].start();
    }
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    return (result[0] + result[1]) / 2;
  }

  private static double median(IntFunction<Object> path) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sink = 0;
    for (int i = 0; i < 3 * OPS; i++) {
      sink += path.apply(i) == null ? 0 : 1;
    }
    double[] rounds = new double[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < OPS; i++) {
        sink += path.apply(i) == null ? 0 : 1;
      }
      rounds[r] = (threads.getCurrentThreadCpuTime() - start) / (double) OPS;
    }
    if (sink == 42) {
      System.out.print("");
    }
    Arrays.sort(rounds);
    return rounds[ROUNDS / 2];
  }
}
