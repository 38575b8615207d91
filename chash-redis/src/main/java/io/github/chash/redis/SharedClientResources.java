package io.github.chash.redis;

import io.github.chash.internal.node.ClientStalls;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One set of Lettuce event loops for all Redis nodes of the JVM, created with the first node and
 * shut down with the last, so three nodes do not cost three thread pools.
 *
 * <p>The resources learn their event loops ({@link IoThreads}) so a node's timeout is blamed on its
 * server only when the loop that reads its reply could run.
 *
 * <p>Reconnect attempts back off exponentially from 10 ms but never wait more than 1 s, so a
 * restarted server is reconnected by the time the failure policy probes it. Thread-safe.
 */
final class SharedClientResources {
  private static final Duration FIRST_RECONNECT_DELAY = Duration.ofMillis(10);
  private static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(1);

  private static ClientResources resources;
  private static IoThreads ioThreads;
  private static int users;

  private SharedClientResources() {}

  static synchronized ClientResources acquire() {
    if (users++ == 0) {
      ioThreads = new IoThreads();
      resources =
          DefaultClientResources.builder()
              .nettyCustomizer(ioThreads)
              .reconnectDelay(
                  Delay.exponential(
                      FIRST_RECONNECT_DELAY, MAX_RECONNECT_DELAY, 2, TimeUnit.MILLISECONDS))
              .build();
    }
    return resources;
  }

  /**
   * {@return the check of the event loops that read replies, for node deadlines; none once the last
   * node released the resources}
   */
  static synchronized ClientStalls.IoCheck ioThreads() {
    return ioThreads == null ? ClientStalls.IoCheck.NONE : ioThreads;
  }

  static synchronized void release() {
    if (users > 0 && --users == 0) {
      ClientResources last = resources;
      resources = null;
      ioThreads = null;
      last.shutdown(0, 2, TimeUnit.SECONDS);
    }
  }
}
