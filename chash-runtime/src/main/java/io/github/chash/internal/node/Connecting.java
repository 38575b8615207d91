package io.github.chash.internal.node;

import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * What the remote nodes (Redis, memcached) share about connecting: how long a connection may take
 * to come up, and what a node logs when its first one is not up by the end of {@code awaitReady}.
 */
public final class Connecting {
  private static final Duration AT_LEAST = Duration.ofSeconds(1);

  private Connecting() {}

  /**
   * {@return the connect timeout of a node whose commands time out after {@code commandTimeout}:
   * ten of them, at least 1 s, since TLS handshakes and AUTH take several round trips}
   *
   * @param commandTimeout the node's command timeout
   */
  public static Duration timeout(Duration commandTimeout) {
    Duration tenTimes = commandTimeout.multipliedBy(10);
    return tenTimes.compareTo(AT_LEAST) > 0 ? tenTimes : AT_LEAST;
  }

  /**
   * Logs, as a warning, that the node's first connection is not up yet and why; its calls are
   * misses until it is.
   *
   * @param log the node's logger
   * @param id the node's id
   * @param endpoint the server, named in the message by its {@code toString}
   * @param reason why, or null for no answer within the connect timeout
   * @param commandTimeout the node's command timeout
   */
  public static void logNotReady(
      System.Logger log, String id, Object endpoint, String reason, Duration commandTimeout) {
    log.log(
        Level.WARNING,
        () ->
            "node \""
                + id
                + "\": cannot connect to "
                + endpoint
                + " yet: "
                + (reason != null
                    ? reason
                    : "no answer within " + timeout(commandTimeout).toMillis() + " ms")
                + "; its calls are misses until it answers");
  }
}
