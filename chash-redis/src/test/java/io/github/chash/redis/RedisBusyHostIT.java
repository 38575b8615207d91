package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.text.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A host whose cores another process keeps busy (issue 42, item 3): one spinning shell per core
 * runs beside three real redis-servers and the callers, with the default failover settings. A
 * timeout that blamed a healthy server for the host's load would eject it, and every call meanwhile
 * would run the cached method's body again. Asserts that no call fails, that no node is ejected and
 * that the body runs again for a cached key in under 0.1% of calls. 15 s by default; {@code
 * -Dchash.busyHost=10m} runs the 10 minutes, and {@code -Dchash.busyHost.burners=8} spins 8
 * shells rather than one per core. operations.md ("A busy host") gives the measurements.
 */
class RedisBusyHostIT {
  private static final String RUN = "chash.busyHost";
  private static final String BURNERS = "chash.busyHost.burners";
  private static final Duration DEFAULT_RUN = Duration.ofSeconds(15);
  private static final int CALLERS = 8;
  private static final int KEYS = 3_000;

  /** The most calls in which the body may run again for a key already cached (issue 42). */
  private static final double MOST_RERUN_SHARE = 0.001;

  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  @Test
  void bothCoresBusy_noNodeIsEjectedAndTheBodyRarelyRunsAgain() throws Exception {
    String setting = System.getProperty(RUN, "");
    Duration run = setting.isBlank() ? DEFAULT_RUN : Durations.parse(setting, RUN);
    String yaml = fleet.nodesYaml() + "caches:\n  users: { ttl: 1h }\n";
    List<Process> burners = burnEveryCore();
    try (ShardedCacheManager manager =
        RedisFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")))) {
      TypedCache<Integer, String> users = manager.cache("users").typed(Integer.class, String.class);
      Map<Integer, LongAdder> bodyRuns = new ConcurrentHashMap<>();
      LongAdder calls = new LongAdder();
      Queue<Throwable> thrown = new ConcurrentLinkedQueue<>();
      long end = System.nanoTime() + run.toNanos();
      CountDownLatch done = new CountDownLatch(CALLERS);
      AtomicLong slowestNanos = new AtomicLong();
      for (int c = 0; c < CALLERS; c++) {
        Thread caller =
            new Thread(
                () -> {
                  try {
                    while (System.nanoTime() < end) {
                      int id = ThreadLocalRandom.current().nextInt(KEYS);
                      long start = System.nanoTime();
                      users.get(
                          id,
                          k -> {
                            bodyRuns.computeIfAbsent(k, x -> new LongAdder()).increment();
                            return "user " + k;
                          });
                      slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                      calls.increment();
                    }
                  } catch (Throwable t) {
                    thrown.add(t);
                  } finally {
                    done.countDown();
                  }
                },
                "caller-" + c);
        caller.start();
      }
      assertThat(done.await(run.toSeconds() + 120, TimeUnit.SECONDS)).as("callers ended").isTrue();

      long reruns = bodyRuns.values().stream().mapToLong(r -> r.sum() - 1).sum();
      Map<String, String> nodes = new TreeMap<>();
      long ejections = 0;
      for (Map.Entry<String, CacheStats> node : manager.nodeStats().entrySet()) {
        CacheStats stats = node.getValue();
        ejections += stats.ejectionCount();
        nodes.put(
            node.getKey(),
            "ejections " + stats.ejectionCount() + ", failed calls " + stats.errorCount());
      }
      double share = (double) reruns / Math.max(1, calls.sum());
      System.out.printf(
          "%n=== busy host (%d spinning shells), %d s, %d callers on %d keys: %d calls, %d first"
              + " loads, %d body runs again (%.4f%%), slowest call %d ms, caller exceptions %d,"
              + " load average %s; %s%n",
          burners.size(),
          run.toSeconds(),
          CALLERS,
          KEYS,
          calls.sum(),
          bodyRuns.size(),
          reruns,
          share * 100,
          TimeUnit.NANOSECONDS.toMillis(slowestNanos.get()),
          thrown.size(),
          loadAverage(),
          nodes);
      assertThat(thrown).as("exceptions that reached callers").isEmpty();
      assertThat(ejections).as("ejections on a busy host: %s", nodes).isZero();
      assertThat(share).as("share of calls that ran the body again").isLessThan(MOST_RERUN_SHARE);
    } finally {
      burners.forEach(Process::destroyForcibly);
      for (Process burner : burners) {
        burner.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** One shell spinning on each core (or as many as asked): other processes, as a busy host has. */
  private static List<Process> burnEveryCore() throws java.io.IOException {
    List<Process> burners = new ArrayList<>();
    int count = Integer.getInteger(BURNERS, Runtime.getRuntime().availableProcessors());
    for (int i = 0; i < count; i++) {
      burners.add(
          new ProcessBuilder("sh", "-c", "while :; do :; done")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start());
    }
    return burners;
  }

  private static String loadAverage() {
    return String.format(
        "%.2f",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
