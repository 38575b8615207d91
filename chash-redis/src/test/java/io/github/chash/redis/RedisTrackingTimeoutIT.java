package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 45, item 7, on a real Redis server: a tracking channel whose {@code CLIENT TRACKING} is
 * answered only after its timeout, as on a busy start. JVM B reaches the server through a proxy
 * that holds that one command until B has given up on it, so B runs with no confirmed channel while
 * JVM A writes; every other byte passes. A near cache must never serve an entry read while its
 * node's channel was not confirmed: B's read after A's write completed gets A's value. And the
 * warning calls the timeout a timeout, without sending the user to check the server's version.
 */
class RedisTrackingTimeoutIT {
  private static final ValueType STRING = ValueType.of(String.class);

  /** A 100 ms command timeout gives a 1 s tracking-command timeout ({@code Connecting}). */
  private static final String FAILOVER = "{ failureLimit: 3, retryAfter: 1s, timeout: 100ms }";

  private static final String NEAR = "{ ttl: 10m, near: { maximumSize: 1000, ttl: 1m } }";
  private static final long NEVER_SECONDS = 30;

  /** B's name for r1, which no other manager uses: what B's channel logs is told apart. */
  private static final String B = "late-tracking-b";

  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(1);

  /** Keeps B's channel's warnings; the first is about its tracking command unanswered. */
  private static final class Warnings extends Handler {
    final List<String> messages = new CopyOnWriteArrayList<>();
    final CountDownLatch timedOut = new CountDownLatch(1);

    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() >= Level.WARNING.intValue()
          && record.getMessage().contains("node \"" + B + "\"")) {
        messages.add(record.getMessage());
        timedOut.countDown();
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  @Test
  void trackingAnsweredAfterItsTimeout_nothingReadMeanwhileIsServedAfterAnotherJvmsWrite()
      throws Exception {
    Logger log = Logger.getLogger(RedisTracking.class.getName());
    Warnings warnings = new Warnings();
    log.addHandler(warnings);
    RedisServerProcess r1 = fleet.server("r1");
    try (ShardedCacheManager jvmA = fleet.manager(FAILOVER);
        HoldingProxy proxy = HoldingProxy.start(r1.port(), "TRACKING")) {
      InterceptedCache a = InterceptedCache.of(jvmA.cache("users"));
      String key = a.routingKey("k", "test");
      a.put(key, "old");
      try (ShardedCacheManager jvmB =
          RedisFleet.oneNode(B, "redis://127.0.0.1:" + proxy.port(), FAILOVER, NEAR)) {
        InterceptedCache b = InterceptedCache.of(jvmB.cache("users"));
        assertThat(proxy.awaitHeld()).as("B's CLIENT TRACKING reached the proxy").isTrue();

        Object before = b.getIfPresent(key, STRING); // no confirmed channel: must not be kept
        a.put(key, "new"); // B is told nothing: its channel is not on
        Object after = b.getIfPresent(key, STRING);
        boolean gaveUp = warnings.timedOut.await(NEVER_SECONDS, TimeUnit.SECONDS);
        Object afterTheTimeout = b.getIfPresent(key, STRING);
        proxy.release(); // the late answer arrives on a connection B has closed
        boolean back = RedisFleet.awaitTrackingOn(jvmB, B, NEVER_SECONDS);
        a.put(key, "newest");
        Object tracked = awaitValue(b, key, "newest");

        assertThat(before).isEqualTo("old");
        assertThat(after).as("B's read after A's write completed, no channel").isEqualTo("new");
        assertThat(gaveUp).as("B gave up on the unanswered CLIENT TRACKING").isTrue();
        assertThat(afterTheTimeout).isEqualTo("new");
        assertThat(back).as("B's channel came back once the server answers").isTrue();
        assertThat(tracked).as("B's read once tracking is back").isEqualTo("newest");
        assertThat(warnings.messages)
            .as("the warning says the tracking command timed out, not that the server refused it")
            .hasSize(1)
            .first(org.assertj.core.api.InstanceOfAssertFactories.STRING)
            .contains("CLIENT TRACKING got no answer in time", "timed out", "tried again")
            .doesNotContain("refused", "Redis 6");
      }
    } finally {
      log.removeHandler(warnings);
    }
  }

  /**
   * Reads until the value is seen (at most 30 s): with tracking on, A's write reaches B within the
   * invalidation's trip, not at once; {@return the last value read}
   */
  private static Object awaitValue(InterceptedCache b, String key, String expected) {
    AtomicReference<Object> read = new AtomicReference<>();
    try {
      Awaitility.await(expected + " read")
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(5))
          .atMost(Duration.ofSeconds(NEVER_SECONDS))
          .until(
              () -> {
                read.set(b.getIfPresent(key, STRING));
                return expected.equals(read.get());
              });
    } catch (ConditionTimeoutException notSeen) {
      // the caller's assertion on the last value read says so
    }
    return read.get();
  }
}
