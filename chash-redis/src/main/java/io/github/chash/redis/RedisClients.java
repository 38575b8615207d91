package io.github.chash.redis;

import io.github.chash.internal.node.Connecting;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;

/**
 * How a Redis node sets up Lettuce, apart from its commands: the server's URI, the client's options
 * (no queueing or replay across a disconnect, Lettuce's own timeout only a backstop), and a failure
 * in words.
 */
final class RedisClients {
  private static final String WIRE_LOGGER = "io.lettuce.core.protocol.CommandEncoder";

  private RedisClients() {}

  /**
   * Why a connection or command failed, in words: a refused login says so (Redis answers {@code
   * WRONGPASS} or {@code NOAUTH}, never echoing the secret); otherwise the deepest cause, since
   * Lettuce's own wrapper only says {@code Unable to connect to host/<unresolved>:port}.
   */
  static String describe(Throwable failure) {
    String deepest = String.valueOf(failure);
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message == null) {
        continue;
      }
      if (t instanceof RedisCommandExecutionException && isAuthRefusal(message)) {
        return "the server refused authentication (" + firstLine(message) + ")";
      }
      deepest = message;
    }
    return firstLine(deepest);
  }

  /**
   * {@return whether the server answered with an error (the failure or a cause is Redis's error
   * reply), as against no answer: a timeout or a lost connection}
   */
  static boolean isErrorReply(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof RedisCommandExecutionException) {
        return true;
      }
    }
    return false;
  }

  private static boolean isAuthRefusal(String message) {
    return message.startsWith("WRONGPASS")
        || message.startsWith("NOAUTH")
        || message.startsWith("NOPERM")
        || message.startsWith("ERR invalid password")
        || message.startsWith("ERR AUTH")
        || message.contains("no password is set");
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  /**
   * Warns when Lettuce's wire logger is at TRACE for a server with credentials: Lettuce would log
   * them in every {@code AUTH} it sends.
   */
  static void warnIfWireTraced(System.Logger log, String id, RedisEndpoint endpoint) {
    if (endpoint.hasCredentials()
        && InternalLoggerFactory.getInstance(WIRE_LOGGER).isTraceEnabled()) {
      log.log(
          Level.WARNING,
          "node \""
              + id
              + "\": logger "
              + WIRE_LOGGER
              + " is at TRACE: Lettuce then logs every byte"
              + " it sends, including the AUTH credentials of "
              + endpoint
              + "; lower it to DEBUG");
    }
  }

  /** The options of a node's client: see each setting's comment. */
  static ClientOptions options(Duration timeout) {
    Duration connectTimeout = Connecting.timeout(timeout);
    // the handshake (HELLO, AUTH, SELECT) gets the connect timeout, see uri
    return ClientOptions.builder()
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        // commands in flight at a disconnect are dropped, never re-sent after the reconnect
        .replayFilter(command -> true)
        .socketOptions(
            SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).build())
        // Lettuce's own command timeout is only a backstop, twice the bound of chash's deadline
        // (ClientStalls), which must decide first: at the same 1 s, Lettuce's timer fired while a
        // starved client's own check could not run, and its timeout was blamed on a healthy node
        .timeoutOptions(TimeoutOptions.enabled(backstop(timeout)))
        .build();
  }

  /** Lettuce's own command timeout: twice the bound of chash's deadline, which decides first. */
  static Duration backstop(Duration timeout) {
    return Connecting.timeout(timeout).multipliedBy(2);
  }

  /**
   * The server's URI, or a Sentinel shard's: its sentinels (asked without credentials, each under
   * the handshake timeout) and master name; the credentials and database are the primary's.
   */
  static RedisURI uri(RedisEndpoint endpoint, Duration handshakeTimeout) {
    RedisURI.Builder builder;
    if (endpoint.isSentinel()) {
      List<RedisEndpoint.Sentinel> sentinels = endpoint.sentinels();
      builder =
          RedisURI.Builder.sentinel(
              sentinels.get(0).host(), sentinels.get(0).port(), endpoint.masterName());
      for (RedisEndpoint.Sentinel other : sentinels.subList(1, sentinels.size())) {
        builder.withSentinel(other.host(), other.port());
      }
    } else {
      builder =
          RedisURI.builder()
              .withHost(endpoint.host())
              .withPort(endpoint.port())
              .withSsl(endpoint.ssl());
    }
    builder.withDatabase(endpoint.database()).withTimeout(handshakeTimeout).withClientName("chash");
    char[] password = endpoint.password();
    if (password != null) {
      if (endpoint.user() != null) {
        builder.withAuthentication(endpoint.user(), password);
      } else {
        builder.withPassword(password);
      }
    }
    return builder.build();
  }
}
