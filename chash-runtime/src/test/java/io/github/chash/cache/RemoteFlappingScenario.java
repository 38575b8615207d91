package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Issue 11's flapping owner: one of three real servers is killed and restarted every 500 ms for 20
 * s (down for 250 ms, long enough to be ejected, or for 20 ms, too short for it) while 4 threads
 * read, write and evict through the cache, each thread checking every hit of its own keys against
 * the last version it wrote. The promise: no stale read, no exception. One subclass per remote node
 * type gives the servers.
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

  /** A manager over the servers with cache {@code users} and {@link #FAILOVER}, nodes answering. */
  private ShardedCacheManager manager() {
    return fleet().manager(FAILOVER);
  }

  private TestServer victimServer() {
    return fleet().server(victim());
  }

  @RepeatedTest(5)
  void flappingNode_noStaleReadAndNoCallerException(RepetitionInfo repetition) throws Exception {
    try (ShardedCacheManager manager = manager()) {
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
          "%n=== flapping %s, repetition %d of %d: %d kills in %d s, %d calls, %d hits,"
              + " %d ejections, %d node errors, slowest call %.1f ms, stale reads %d,"
              + " caller exceptions %d%n",
          victim(),
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
}
