package io.github.chash.redis;

import io.github.chash.cache.Invalidations;
import io.github.chash.internal.keys.KeyBytes;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.push.PushListener;
import io.lettuce.core.api.push.PushMessage;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolVersion;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The invalidation channel of one Redis node ({@link RedisCacheNode#track}): a connection of its
 * own, in RESP3, on which {@code CLIENT TRACKING ON BCAST PREFIX <keyPrefix><cache>: ...} makes the
 * server push an {@code invalidate} message for every change of a key under those prefixes, by any
 * client (this JVM's writes too), and for every expiry and eviction. The keys are reported to the
 * near caches as routing keys; a message without keys (the server was flushed) counts as a loss.
 *
 * <p>The connection is this class's own to reopen: Lettuce does not reconnect it, so that a
 * reconnect is never silent. When it drops (a restarted server, a {@code CLIENT KILL}, a failed
 * heartbeat), the near caches are told the channel is {@linkplain Invalidations#lost lost} first; a
 * new connection is tried after 10 ms, then at most every second, and {@linkplain
 * Invalidations#tracking tracking} is reported only once the server acknowledged {@code CLIENT
 * TRACKING} on it. A {@code PING} every second, answered within the connect timeout, finds a
 * connection that went silent without closing (a network partition): a change is never missed
 * without a loss reported within about two seconds. Needs Redis 6 or later (or Valkey); an older
 * server refuses RESP3, which is logged once, and nothing read from the node is kept. Thread-safe.
 */
final class RedisTracking {
  private static final System.Logger LOG = System.getLogger(RedisTracking.class.getName());
  private static final Duration HEARTBEAT = Duration.ofSeconds(1);
  private static final long FIRST_RETRY_MILLIS = 10;
  private static final long MAX_RETRY_MILLIS = 1000;

  private final String id;
  private final RedisEndpoint endpoint;
  private final RedisURI uri;
  private final byte[] keyPrefix;
  private final List<String> routingKeyPrefixes;
  private final Invalidations listener;
  private final RedisClient client;

  /** Its key in {@link LocalChannels}. */
  private final String server;

  // guarded by this
  private StatefulRedisConnection<byte[], byte[]> connection;

  /** {@link #connection} once the server acknowledged tracking on it, else null. */
  private StatefulRedisConnection<byte[], byte[]> armed;

  private boolean closed;
  private long retryMillis = FIRST_RETRY_MILLIS;
  private ScheduledFuture<?> heartbeat;
  private boolean refusalLogged;

  /**
   * @param uri the server's URI, a copy of the node's own (its client name is changed here)
   * @param keyPrefix the node's {@code keyPrefix}
   * @param routingKeyPrefixes one per cache with a near cache, e.g. {@code users:}
   * @param replyTimeout how long the server may take to answer a heartbeat or the tracking command
   */
  RedisTracking(
      String id,
      RedisEndpoint endpoint,
      RedisURI uri,
      String keyPrefix,
      List<String> routingKeyPrefixes,
      Invalidations listener,
      Duration replyTimeout) {
    this.id = id;
    this.endpoint = endpoint;
    this.uri = uri;
    this.keyPrefix = KeyBytes.of(keyPrefix);
    this.routingKeyPrefixes = List.copyOf(routingKeyPrefixes);
    this.listener = listener;
    this.server = LocalChannels.server(endpoint, keyPrefix);
    uri.setClientName("chash-tracking");
    this.client = RedisClient.create(SharedClientResources.acquire());
    client.setOptions(
        ClientOptions.builder()
            .protocolVersion(ProtocolVersion.RESP3) // push messages on this very connection
            .autoReconnect(false) // reopened here, so that a loss is always reported
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .socketOptions(
                SocketOptions.builder().connectTimeout(replyTimeout).keepAlive(true).build())
            .timeoutOptions(TimeoutOptions.enabled(replyTimeout))
            .build());
  }

  /**
   * Opens the channel in the background, and starts its heartbeat. The connection is opened outside
   * this object's lock: its callbacks may run on the calling thread (a reply that came before its
   * callback was attached), and the heartbeat must not wait for them to return.
   */
  void start() {
    synchronized (this) {
      LocalChannels.add(server, this);
      heartbeat =
          client
              .getResources()
              .eventExecutorGroup()
              .scheduleWithFixedDelay(
                  this::beat, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
    }
    connect();
  }

  private void connect() {
    client
        .connectAsync(ByteArrayCodec.INSTANCE, uri)
        .whenComplete(
            (open, failure) -> {
              if (open != null) {
                arm(open);
              } else {
                retry("cannot connect: " + RedisClients.describe(failure));
              }
            });
  }

  /**
   * Turns tracking on over a new connection; reports it on the server's acknowledgement.
   *
   * <p>Every report that depends on the state of the channel ({@link Invalidations#tracking},
   * {@link Invalidations#lost}) is made under this object's lock, by the thread that changed the
   * state, and only while {@code open} is the current connection. A connection's end ({@link
   * #dropped}) makes it not current and reports the loss in one step, so a late acknowledgement or
   * flush of a connection that is gone can never report tracking after its loss: the
   * acknowledgement is read on a Netty event loop while a heartbeat's timeout drops the connection
   * on another thread, and once the report of tracking came after the loss, entries read with no
   * channel at all were served until their near ttl (issue 45, item 7).
   */
  private void arm(StatefulRedisConnection<byte[], byte[]> open) {
    synchronized (this) {
      if (closed) {
        open.closeAsync();
        return;
      }
      connection = open;
    }
    open.addListener((PushListener) message -> pushed(open, message));
    open.addListener(
        new RedisConnectionStateListener() {
          @Override
          public void onRedisDisconnected(RedisChannelHandler<?, ?> gone) {
            dropped(open, "the connection closed");
          }
        });
    CommandArgs<byte[], byte[]> args =
        new CommandArgs<>(ByteArrayCodec.INSTANCE).add("TRACKING").add("ON").add("BCAST");
    for (String prefix : routingKeyPrefixes) {
      args.add("PREFIX").add(concat(keyPrefix, KeyBytes.of(prefix)));
    }
    open.async()
        .dispatch(CommandType.CLIENT, new StatusOutput<>(ByteArrayCodec.INSTANCE), args)
        .whenComplete(
            (ok, failure) -> {
              if (failure != null) {
                refused(failure);
                dropped(open, "CLIENT TRACKING refused");
                return;
              }
              synchronized (this) {
                if (connection != open) {
                  return; // dropped before its acknowledgement was read: its loss was reported
                }
                armed = open;
                retryMillis = FIRST_RETRY_MILLIS;
                listener.tracking();
              }
              LOG.log(Level.DEBUG, () -> "node \"" + id + "\": tracking changes on " + endpoint);
            });
  }

  /**
   * The connection is gone or given up: the near caches lose what they read from the node, it is
   * closed, then a retry. Only the first of its ends does this (a timed-out heartbeat and the close
   * it causes are two), so it is closed once: Lettuce warns of a second close.
   */
  private void dropped(StatefulRedisConnection<byte[], byte[]> gone, String why) {
    synchronized (this) {
      if (connection != gone) {
        return; // an older connection's late event
      }
      connection = null;
      armed = null;
      listener.lost();
    }
    gone.closeAsync();
    retry(why);
  }

  private void retry(String why) {
    long delay;
    synchronized (this) {
      if (closed) {
        return;
      }
      delay = retryMillis;
      retryMillis = Math.min(MAX_RETRY_MILLIS, retryMillis * 2);
    }
    LOG.log(
        Level.DEBUG,
        () -> "node \"" + id + "\": tracking channel to " + endpoint + " down (" + why + ")");
    client
        .getResources()
        .eventExecutorGroup()
        .schedule(this::connectUnlessClosed, delay, TimeUnit.MILLISECONDS);
  }

  private void connectUnlessClosed() {
    synchronized (this) {
      if (closed) {
        return;
      }
    }
    connect();
  }

  /** A {@code PING} on the channel; no answer in time closes it, which reports the loss. */
  private void beat() {
    StatefulRedisConnection<byte[], byte[]> open;
    synchronized (this) {
      open = connection;
    }
    if (open == null) {
      return;
    }
    open.async()
        .ping()
        .whenComplete(
            (pong, failure) -> {
              if (failure != null) {
                dropped(open, "no answer to a heartbeat: " + RedisClients.describe(failure));
              }
            });
  }

  /**
   * Logs a failed {@code CLIENT TRACKING}, the first time as a warning: an error reply is the
   * server refusing it (an older Redis, an ACL), which the user must fix; no reply in time (a busy
   * start, a slow network) says so and is retried like a lost channel, without sending the user to
   * check a server version that is fine.
   */
  private void refused(Throwable failure) {
    boolean first;
    synchronized (this) {
      first = !refusalLogged;
      refusalLogged = true;
    }
    boolean answered = RedisClients.isErrorReply(failure);
    String why = RedisClients.describe(failure);
    LOG.log(
        first ? Level.WARNING : Level.DEBUG,
        () ->
            "node \""
                + id
                + (answered
                    ? "\": the server refused CLIENT TRACKING (" + why + ")"
                    : "\": CLIENT TRACKING got no answer in time (" + why + ")")
                + "; near caches keep nothing read from "
                + endpoint
                + (answered
                    ? " until it accepts it (Redis 6 or later)"
                    : " until it is set up; it is tried again as after a lost channel"));
  }

  /**
   * An {@code invalidate} message on {@code from}: its keys as routing keys, or a flush (no keys)
   * as a loss, followed by tracking again if {@code from} is still the current, acknowledged
   * channel.
   */
  private void pushed(StatefulRedisConnection<byte[], byte[]> from, PushMessage message) {
    if (!"invalidate".equals(message.getType())) {
      return;
    }
    List<Object> content = message.getContent(RedisTracking::bytes);
    Object keys = content.size() > 1 ? content.get(1) : null;
    if (!(keys instanceof List<?> changed)) {
      synchronized (this) { // every key went at once (FLUSHALL, FLUSHDB)
        if (connection == from) {
          listener.lost();
          if (armed == from) {
            listener.tracking();
          }
        }
      }
      return;
    }
    for (Object key : changed) {
      if (key instanceof byte[] serverKey && startsWith(serverKey, keyPrefix)) {
        String routingKey =
            KeyBytes.toKey(serverKey, keyPrefix.length, serverKey.length - keyPrefix.length);
        if (routingKey != null) {
          listener.changed(routingKey); // from a connection that is gone too: harmless
        }
      }
    }
  }

  /**
   * A manager of this JVM writes the routing key on the server ({@link LocalChannels}): reported as
   * changed if it is under a followed prefix, whatever state the connection is in.
   */
  void writtenHere(String routingKey) {
    for (String prefix : routingKeyPrefixes) {
      if (routingKey.startsWith(prefix)) {
        listener.changed(routingKey);
        return;
      }
    }
  }

  /** Stops the heartbeat and closes the channel; nothing is reported after. */
  void close() {
    StatefulRedisConnection<byte[], byte[]> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      LocalChannels.remove(server, this);
      open = connection;
      connection = null;
      armed = null;
      if (heartbeat != null) {
        heartbeat.cancel(false);
      }
    }
    try {
      if (open != null) {
        open.close();
      }
      client.shutdown(0, 2, TimeUnit.SECONDS);
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, () -> "node \"" + id + "\": error while closing tracking: " + e);
    } finally {
      SharedClientResources.release();
    }
  }

  private static Object bytes(ByteBuffer buffer) {
    if (buffer == null) {
      return null;
    }
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    if (bytes.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
