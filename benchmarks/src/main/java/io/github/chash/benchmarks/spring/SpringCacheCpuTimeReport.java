package io.github.chash.benchmarks.spring;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * {@link SpringCacheManagerBenchmark}'s hits in thread CPU time, for a machine shared with other
 * work (where JMH's wall-clock errors exceed the scores): the chash and the Caffeine path run in
 * alternating rounds of {@value #OPS} calls, so a disturbance falls on both alike, and each ratio
 * is the median of the {@value #ROUNDS} rounds' chash/Caffeine ratios. A complement to the JMH run,
 * not a replacement.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * io.github.chash.benchmarks.spring.SpringCacheCpuTimeReport}.
 */
public final class SpringCacheCpuTimeReport {
  static final int OPS = 500_000;
  static final int ROUNDS = 15;

  private SpringCacheCpuTimeReport() {}

  /**
   * Prints the table.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    SpringCacheManagerBenchmark b = new SpringCacheManagerBenchmark();
    b.keys = 4096;
    b.setUp();
    try {
      int mask = b.keys - 1;
      System.out.printf(
          "| key | chash ns/call | Caffeine ns/call | chash / Caffeine |%n|---|---:|---:|---:|%n");
      row(
          "String",
          i -> b.onChash.byName(b.names[i & mask]),
          i -> b.onCaffeine.byName(b.names[i & mask]));
      row("long", i -> b.onChash.byId(b.ids[i & mask]), i -> b.onCaffeine.byId(b.ids[i & mask]));
      System.out.printf(
          "%nmedians of %d alternating rounds of %,d calls; target <= 1.2%n", ROUNDS, OPS);
    } finally {
      b.tearDown();
    }
  }

  private static void row(String key, IntFunction<Object> chash, IntFunction<Object> caffeine) {
    run(chash, 4 * OPS);
    run(caffeine, 4 * OPS);
    double[] chashNs = new double[ROUNDS];
    double[] caffeineNs = new double[ROUNDS];
    double[] ratios = new double[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      chashNs[r] = run(chash, OPS);
      caffeineNs[r] = run(caffeine, OPS);
      ratios[r] = chashNs[r] / caffeineNs[r];
    }
    System.out.printf(
        "| %s | %.1f | %.1f | %.3f |%n", key, median(chashNs), median(caffeineNs), median(ratios));
  }

  /** CPU nanoseconds per call of the current thread over {@code ops} calls. */
  private static double run(IntFunction<Object> path, int ops) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sink = 0;
    long start = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < ops; i++) {
      sink += path.apply(i) == null ? 0 : 1;
    }
    double ns = (threads.getCurrentThreadCpuTime() - start) / (double) ops;
    if (sink != ops) {
      throw new IllegalStateException("a hit returned null");
    }
    return ns;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
