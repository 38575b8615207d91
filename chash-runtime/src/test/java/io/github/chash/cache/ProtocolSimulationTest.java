package io.github.chash.cache;

// The long run (about 100,000,000 operations over 100,000 seeds; hours on 2 cores):
//
//   ./mvnw -B -ntp -pl chash-runtime test -Dtest=ProtocolSimulationTest#seeds \
//       -Dchash.sim.seeds=100000 -Dchash.sim.ops=100000000
//
// Replay one seed with its full trace:
//
//   ./mvnw -B -ntp -pl chash-runtime test -Dtest=ProtocolSimulationTest#seeds -Dchash.sim.seed=S
//
// Rerun a whole batch (its first seed is printed): add -Dchash.sim.firstSeed=F.

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A deterministic simulation of the real manager (VOPR-style): per seed, a configuration, a
 * workload, membership changes, probes, sweeps and server faults on simulated time; the checker
 * fails on any read that returned a value older than a write completed before the read began. See
 * {@link SimRun} and {@link SimScheduler}.
 */
@ExtendWith(QuietChashLogs.class)
class ProtocolSimulationTest {

  @Test
  void seeds() throws Exception {
    String one = System.getProperty("chash.sim.seed");
    if (one != null && !one.isBlank()) {
      replay(Long.parseLong(one.trim()));
      return;
    }
    int seeds = Integer.getInteger("chash.sim.seeds", 1000);
    long totalOps = Long.getLong("chash.sim.ops", 1_000_000L);
    int perSeed = (int) Math.max(1, totalOps / seeds);
    String first = System.getProperty("chash.sim.firstSeed");
    long firstSeed =
        first != null && !first.isBlank()
            ? Long.parseLong(first.trim())
            : (System.nanoTime() ^ System.currentTimeMillis() * 1_000_003L) & 0xFFFF_FFFFL;
    int workers = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
    System.out.printf(
        "protocol simulation: %d seeds from %d, %d ops each, %d workers%n",
        seeds, firstSeed, perSeed, workers);
    long started = System.nanoTime();
    List<SimRun.Result> failed = Collections.synchronizedList(new ArrayList<>());
    List<String> errors = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger next = new AtomicInteger();
    long[] ops = new long[workers];
    long[] steps = new long[workers];
    long[] late = new long[workers];
    long[] nearHits = new long[workers];
    int[] nearSeeds = new int[workers];
    long[] slowest = new long[workers];
    String[] slowestOp = new String[workers];
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    List<Future<?>> running = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      int me = w;
      running.add(
          pool.submit(
              () -> {
                for (int i = next.getAndIncrement(); i < seeds; i = next.getAndIncrement()) {
                  long seed = firstSeed + i;
                  try {
                    SimRun.Result r = new SimRun(seed, perSeed, false).run();
                    ops[me] += r.ops();
                    steps[me] += r.steps();
                    late[me] += r.lateWakes();
                    nearHits[me] += r.nearHits();
                    nearSeeds[me] += r.setup().contains("near=none") ? 0 : 1;
                    if (r.slowestOpNanos() > slowest[me]) {
                      slowest[me] = r.slowestOpNanos();
                      slowestOp[me] = "seed " + seed + " " + r.slowestOp();
                    }
                    if (!r.violations().isEmpty()) {
                      failed.add(r);
                    }
                  } catch (RuntimeException | Error e) {
                    errors.add("seed " + seed + ": " + e);
                  }
                }
              }));
    }
    for (Future<?> f : running) {
      f.get();
    }
    pool.shutdown();
    double seconds = (System.nanoTime() - started) / 1e9;
    long allOps = 0;
    long allSteps = 0;
    long allLate = 0;
    long allNearHits = 0;
    int allNearSeeds = 0;
    int slowestWorker = 0;
    for (int w = 0; w < workers; w++) {
      allNearHits += nearHits[w];
      allNearSeeds += nearSeeds[w];
      allOps += ops[w];
      allSteps += steps[w];
      allLate += late[w];
      if (slowest[w] > slowest[slowestWorker]) {
        slowestWorker = w;
      }
    }
    System.out.printf(
        "protocol simulation: %d seeds from %d: %d ops, %d scheduler steps in %.1f s;"
            + " %d seeds with violations, %d errors, %d late wakes; slowest op %.1f ms (%s);"
            + " %d seeds with a near cache, %d near hits%n",
        seeds,
        firstSeed,
        allOps,
        allSteps,
        seconds,
        failed.size(),
        errors.size(),
        allLate,
        slowest[slowestWorker] / 1e6,
        slowestOp[slowestWorker],
        allNearSeeds,
        allNearHits);
    failed.sort((a, b) -> Long.compare(a.seed(), b.seed()));
    for (SimRun.Result r : failed) {
      System.out.println("  " + r.violations().get(0) + " (" + r.violations().size() + " in all)");
    }
    errors.forEach(e -> System.out.println("  error: " + e));
    if (!failed.isEmpty()) {
      SimRun.Result r = failed.get(0);
      SimRun.Violation v = r.violations().get(0);
      System.out.println("first failing seed " + r.seed() + ": " + r.setup() + "\n" + v.trace());
    }
    assertThat(errors).as("runs that failed (watchdog, deadlock, exception)").isEmpty();
    assertThat(failed)
        .as(
            "seeds with stale reads; replay one with -Dchash.sim.seed=%s",
            failed.isEmpty() ? "" : failed.get(0).seed())
        .extracting(r -> r.violations().get(0).toString())
        .isEmpty();
  }

  private static void replay(long seed) {
    int ops =
        Integer.getInteger(
            "chash.sim.opsPerSeed",
            (int)
                (Long.getLong("chash.sim.ops", 1_000_000L)
                    / Integer.getInteger("chash.sim.seeds", 1000)));
    SimRun.Result r = new SimRun(seed, ops, true).run();
    System.out.println("seed " + seed + ": " + r.setup());
    for (SimTrace.Entry e : r.trace().all()) {
      System.out.println(e);
    }
    System.out.printf(
        "seed %d: %d ops, %d steps, %.3f s sim time, trace hash %x, slowest op %.1f ms (%s)%n",
        seed,
        r.ops(),
        r.steps(),
        r.simNanos() / 1e9,
        r.hash(),
        r.slowestOpNanos() / 1e6,
        r.slowestOp());
    r.violations().forEach(v -> System.out.println("VIOLATION " + v + "\n" + v.trace()));
    assertThat(r.violations()).extracting(Object::toString).isEmpty();
  }

  /** The seed that found a clear racing an ejected node's probe (ClearWhileEjectedTest). */
  @Test
  void historicalSeed() {
    SimRun.Result r = new SimRun(3882762663L, 1000, false, SimWeaknesses.NONE).run();
    assertThat(r.violations()).extracting(Object::toString).isEmpty();
  }

  @Test
  void aSeedRunTwiceLeavesTheSameTrace() {
    for (long seed : new long[] {1, 2, 3}) { // seed 3 has a near cache
      SimRun.Result a = new SimRun(seed, 400, true).run();
      SimRun.Result b = new SimRun(seed, 400, true).run();
      if (a.hash() != b.hash()) {
        List<SimTrace.Entry> x = a.trace().all();
        List<SimTrace.Entry> y = b.trace().all();
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
          if (!x.get(i).equals(y.get(i))) {
            for (int j = Math.max(0, i - 10);
                j < Math.min(i + 5, Math.min(x.size(), y.size()));
                j++) {
              System.out.println((j == i ? "> " : "  ") + x.get(j) + "\n  | " + y.get(j));
            }
            break;
          }
        }
      }
      assertThat(b.hash()).as("trace hash of seed %s", seed).isEqualTo(a.hash());
      assertThat(b.steps()).isEqualTo(a.steps());
    }
  }
}
