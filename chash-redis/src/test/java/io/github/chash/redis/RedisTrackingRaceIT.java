package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 45, item 7, on a real Redis server: a tracking channel whose acknowledgement is read while
 * the channel is dropped on another thread. The heartbeat's {@code PING} is written and read by the
 * event loop that reads the acknowledgement; when that loop is held (a busy start), the heartbeat
 * times out on another thread and drops the connection while the acknowledgement is still being
 * reported. If the report of tracking came after the report of the loss, the near cache took the
 * node's channel for on while there was none: a value read then, and written over by another
 * manager, was served until its near ttl (the issue saw 15 s and more).
 *
 * <p>The interleaving is forced with gates on the channel's own DEBUG messages, no sleeps: the
 * thread that logs the acknowledgement is held, and the server frozen (SIGSTOP), until the
 * heartbeat's drop logs its retry; that retry is held (no new connection) while B reads and A
 * writes. The frozen server makes the heartbeat go unanswered whichever thread reports the
 * acknowledgement: usually the event loop that read it, but on a busy machine the thread that
 * opened the connection, when the reply came before the callback was attached. CI once held the
 * test's own thread that way, inside {@code RedisTracking.start}, which then held the channel's
 * lock: the heartbeat could not even read the connection (start opens it outside the lock now), and
 * the free event loop would have answered its PING anyway.
 */
class RedisTrackingRaceIT {
  private static final ValueType STRING = ValueType.of(String.class);

  /** A 100 ms command timeout gives a 1 s connect and heartbeat timeout ({@code Connecting}). */
  private static final String FAILOVER = "{ failureLimit: 3, retryAfter: 1s, timeout: 100ms }";

  /** B's: its pings while the server is frozen (waiting for its node to answer) do not eject it. */
  private static final String B_FAILOVER = "{ failureLimit: 1000, retryAfter: 1s, timeout: 100ms }";

  private static final String NEAR = "{ ttl: 10m, near: { maximumSize: 1000, ttl: 1m } }";
  private static final long NEVER_SECONDS = 30;

  /**
   * B's name for r1, which no other manager uses: the gates hold B's channel only, never another
   * manager's still open in this JVM.
   */
  private static final String B = "race-b";

  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(1);

  /** Holds the channel's threads at its DEBUG messages. */
  private static final class Gates extends Handler {
    final AtomicBoolean firstAck = new AtomicBoolean();
    final CountDownLatch ackHeld = new CountDownLatch(1);
    final CountDownLatch dropLogged = new CountDownLatch(1);
    final CountDownLatch ackReleased = new CountDownLatch(1);
    final CountDownLatch retryReleased = new CountDownLatch(1);
    final RedisServerProcess server;
    volatile boolean heartbeatDropped;

    Gates(RedisServerProcess server) {
      this.server = server;
    }

    @Override
    public void publish(LogRecord record) {
      String message = record.getMessage();
      if (!message.startsWith("node \"" + B + "\"")) {
        return;
      }
      try {
        if (message.contains("tracking changes on") && firstAck.compareAndSet(false, true)) {
          ackHeld.countDown();
          server.pause(); // the heartbeat's PING goes unanswered
          try {
            heartbeatDropped = dropLogged.await(NEVER_SECONDS, TimeUnit.SECONDS);
          } finally {
            server.resume();
          }
          ackReleased.countDown();
        } else if (message.contains("no answer to a heartbeat") && dropLogged.getCount() > 0) {
          dropLogged.countDown();
          retryReleased.await(NEVER_SECONDS, TimeUnit.SECONDS); // no new connection meanwhile
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  @Test
  void ackReadWhileTheHeartbeatDropsTheChannel_nothingReadWithoutAChannelIsServed()
      throws Exception {
    Logger log = Logger.getLogger(RedisTracking.class.getName());
    Level previous = log.getLevel();
    RedisServerProcess r1 = fleet.server("r1");
    Gates gates = new Gates(r1);
    try (ShardedCacheManager jvmA = fleet.manager(FAILOVER)) {
      InterceptedCache a = InterceptedCache.of(jvmA.cache("users"));
      String key = a.routingKey("k", "test");
      a.put(key, "old");
      log.setLevel(Level.FINE);
      log.addHandler(gates);
      try (ShardedCacheManager jvmB = RedisFleet.oneNode(B, r1.uri(), B_FAILOVER, NEAR)) {
        InterceptedCache b = InterceptedCache.of(jvmB.cache("users"));
        assertThat(gates.dropLogged.await(NEVER_SECONDS, TimeUnit.SECONDS))
            .as("the heartbeat dropped the channel while its acknowledgement was held")
            .isTrue();
        assertThat(gates.ackReleased.await(NEVER_SECONDS, TimeUnit.SECONDS)).isTrue();
        awaitNoTrackingClient(r1); // the dropped connection is closed: nothing reaches B now
        // the report of the held acknowledgement, if it could still come, comes now (its thread
        // runs on); with the fix it never does, and this wait ends at its bound
        RedisFleet.awaitTrackingOn(jvmB, B, 2);

        Object before = b.getIfPresent(key, STRING); // may be kept: B's channel seems on
        a.put(key, "new"); // no tracking connection: B is told nothing
        Object after = b.getIfPresent(key, STRING);
        gates.retryReleased.countDown();
        boolean back = RedisFleet.awaitTrackingOn(jvmB, B, NEVER_SECONDS);
        Object tracked = b.getIfPresent(key, STRING);

        assertThat(before).isEqualTo("old");
        assertThat(after).as("B's read after A's write completed, no channel").isEqualTo("new");
        assertThat(back).as("B's channel came back").isTrue();
        assertThat(tracked).as("B's read once tracking is back").isEqualTo("new");
      }
    } finally {
      gates.retryReleased.countDown();
      gates.dropLogged.countDown();
      log.removeHandler(gates);
      log.setLevel(previous);
    }
  }

  /** Waits until no connection of the server has tracking on (at most 30 s). */
  private static void awaitNoTrackingClient(RedisServerProcess server) {
    Awaitility.await("the dropped connection never closed")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(5))
        .atMost(Duration.ofSeconds(NEVER_SECONDS))
        .until(
            () -> !((String) server.command("CLIENT", "LIST")).contains(" name=chash-tracking "));
  }
}
