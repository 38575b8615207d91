package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.KeyLayout;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 11's flapping owner: one of three real servers is killed and restarted every 500 ms for 20
 * s (down for 250 ms, long enough to be ejected, or for 20 ms, too short for it) while 4 threads
 * read, write and evict through the cache, each thread checking every hit of its own keys against
 * the last version it wrote. The promise: no stale read, no exception, for a prefixed cache and for
 * a verbatim one (issue 28: the keys an old client shares). One subclass per remote node type gives
 * the servers.
 */
public abstract class RemoteFlappingScenario {
  private static final Duration RUN = Duration.ofSeconds(20);
  private static final long FLAP_MILLIS = 500;
  private static final int THREADS = 4;
  private static final int KEYS_PER_THREAD = 60;

  /** The failover settings of the scenario's manager. */
  protected static final String FAILOVER =
      "{ failureLimit: 3, retryAfter: 1s, timeout: 100ms, onRejoin: flush }";

  /** {@return three servers and managers over them} */
  protected abstract TestFleet fleet();

  /** {@return the node id of the server that flaps} */
  protected abstract String victim();

  /** Runs per key layout: 3 of 20 s each keep the pair of node types within two minutes. */
  private static final int REPETITIONS = 3;

  /**
   * A manager over the servers with cache {@code users} in the layout and {@link #FAILOVER}, nodes
   * answering.
   */
  private ShardedCacheManager manager(KeyLayout layout) {
    return fleet().manager(FAILOVER, layout);
  }

  static Stream<Arguments> runs() {
    return Stream.of(KeyLayout.values())
        .flatMap(
            layout -> IntStream.rangeClosed(1, REPETITIONS).mapToObj(n -> Arguments.of(layout, n)));
  }

  private TestServer victimServer() {
    return fleet().server(victim());
  }

  @ParameterizedTest(name = "{0} keys, run {1}")
  @MethodSource("runs")
  void flappingNode_noStaleReadAndNoCallerException(KeyLayout layout, int run) throws Exception {
    try (ShardedCacheManager manager = manager(layout)) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      CheckedCallers callers = CheckedCallers.start(users, THREADS, KEYS_PER_THREAD);
      long deadline = System.nanoTime() + RUN.toNanos();
      int kills = 0;
      try {
        while (System.nanoTime() < deadline) {
          // every other outage is too short for an ejection: the node comes back, empty, while
          // writes that failed on it are still the last ones
          long down = kills % 2 == 0 ? FLAP_MILLIS / 2 : 20;
          Thread.sleep(FLAP_MILLIS - down);
          victimServer().kill();
          kills++;
          Thread.sleep(down);
          victimServer().restart();
        }
      } finally {
        callers.stop();
        if (!victimServer().isRunning()) {
          victimServer().restart();
        }
      }
      long calls = callers.calls();
      long hits = callers.hits();
      long slowest = callers.slowestNanos();
      List<String> stale = callers.staleReads();
      List<String> thrown = callers.exceptions();
      CacheStats node = manager.nodeStats().get(victim());
      System.out.printf(
          "%n=== flapping %s, %s keys, run %d of %d: %d kills in %d s, %d calls, %d hits,"
              + " %d near hits, %d ejections, %d node errors, slowest call %.1f ms, stale reads"
              + " %d, caller exceptions %d%n",
          victim(),
          layout,
          run,
          REPETITIONS,
          kills,
          RUN.toSeconds(),
          calls,
          hits,
          manager.cacheStats().get("users").nearHitCount(),
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
}
