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
   * Logs that the node's first connection is still being opened when {@code awaitReady} stops
   * waiting: at INFO, since on a busy start it often comes up a moment later (logged then, at INFO
   * too); an attempt that fails logs its own warning ({@link NodeConnection}).
   *
   * @param log the node's logger
   * @param id the node's id
   * @param endpoint the server, named in the message by its {@code toString}
   * @param commandTimeout the node's command timeout
   */
  public static void logStillConnecting(
      System.Logger log, String id, Object endpoint, Duration commandTimeout) {
    log.log(
        Level.INFO,
        () ->
            "node \""
                + id
                + "\": still connecting to "
                + endpoint
                + " after "
                + timeout(commandTimeout).toMillis()
                + " ms (the connect timeout); its calls are misses until it answers; a warning"
                + " follows only if the attempt fails");
  }

  /**
   * Logs, as a warning, that the node's client is up but its server gave no answer within the
   * connect timeout of startup; the client keeps reconnecting on its own.
   *
   * @param log the node's logger
   * @param id the node's id
   * @param endpoint the server, named in the message by its {@code toString}
   * @param commandTimeout the node's command timeout
   */
  public static void logNoAnswer(
      System.Logger log, String id, Object endpoint, Duration commandTimeout) {
    log.log(
        Level.WARNING,
        () ->
            "node \""
                + id
                + "\": connecting to "
                + endpoint
                + " timed out: no answer within "
                + timeout(commandTimeout).toMillis()
                + " ms of startup; its calls are misses until it answers, and the client keeps"
                + " reconnecting; "
                + PERSISTS);
  }

  /** What to check when a server does not answer, in every message that says so. */
  static final String PERSISTS =
      "if this persists, check that the server is up and reachable from this host";
}
