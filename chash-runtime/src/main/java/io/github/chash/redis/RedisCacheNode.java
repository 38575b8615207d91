package io.github.chash.redis;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.ValueType;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link CacheNode} on one Redis (or Valkey) server, through one shared Lettuce connection.
 *
 * <p>Every command is bounded by the node's timeout (a slow cache is a miss). While disconnected,
 * commands fail at once instead of queueing, and nothing written before a disconnect is replayed
 * after the reconnect: a late write could resurrect a value the rest of the fleet already replaced.
 * Failures surface as {@link CacheNodeException}s for the cache layer's failure policy; a value the
 * codec refuses (class outside the allow-list, unreadable bytes, wrong type) is logged and read as
 * a miss, because the server is healthy. Thread-safe.
 */
final class RedisCacheNode implements CacheNode {
  private static final System.Logger LOG = System.getLogger(RedisCacheNode.class.getName());
  private static final RedisCodec<String, byte[]> CODEC =
      RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);
  private static final String WIRE_LOGGER = "io.lettuce.core.protocol.CommandEncoder";
  private static final int SCAN_BATCH = 1000;
  private static final int LOGGED_CLASSES_LIMIT = 1000;

  private final String id;
  private final RedisEndpoint endpoint;
  private final String keyPrefix;
  private final String scanPattern;
  private final ValueCodec codec;
  private final Duration timeout;
  private final Duration defaultTtl;
  private final RedisClient client;
  private final RedisURI uri;
  private final Set<String> loggedClasses = ConcurrentHashMap.newKeySet();

  private volatile StatefulRedisConnection<String, byte[]> connection;
  private CompletableFuture<StatefulRedisConnection<String, byte[]>> connecting;
  private long lastConnectAttempt;
  private volatile boolean closed;

  RedisCacheNode(
      String id,
      RedisEndpoint endpoint,
      String keyPrefix,
      ValueCodec codec,
      Duration timeout,
      Duration defaultTtl) {
    this.id = id;
    this.endpoint = endpoint;
    this.keyPrefix = keyPrefix;
    this.scanPattern = globEscape(keyPrefix) + "*";
    this.codec = codec;
    this.timeout = timeout;
    this.defaultTtl = defaultTtl;
    this.uri = redisUri(endpoint, connectTimeout(timeout));
    this.client = RedisClient.create(SharedClientResources.acquire());
    client.setOptions(clientOptions(timeout));
    if (endpoint.hasCredentials() && wireTraceEnabled()) {
      LOG.log(
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
    awaitFirstConnection(connectTimeout(timeout));
  }

  /**
   * Waits up to the connect timeout for the first connection, so the first calls after startup do
   * not fail (and eject the node) just because the connection was still being set up; a server that
   * is down does not fail startup, its calls fail until it is back.
   */
  private void awaitFirstConnection(Duration wait) {
    try {
      connectIfIdle().get(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      String reason =
          e instanceof TimeoutException ? "no answer within " + wait : e.getCause().getMessage();
      LOG.log(
          Level.WARNING,
          () ->
              "node \""
                  + id
                  + "\": cannot connect to "
                  + endpoint
                  + " yet ("
                  + reason
                  + "); its calls are misses until it answers");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Object get(String key, ValueType type) {
    byte[] bytes;
    try {
      bytes = await(commands().get(keyPrefix + key));
    } catch (RuntimeException e) {
      throw failure("get", e);
    }
    if (bytes == null) {
      return null;
    }
    try {
      Object value = codec.decode(bytes, type.type());
      if (!isInstance(type.rawClass(), value)) {
        throw new CodecException(
            "stored value of class "
                + value.getClass().getName()
                + " is not a "
                + type.type().getTypeName(),
            null);
      }
      return value;
    } catch (CodecException e) {
      logRefused("value treated as a miss", e);
      return null;
    }
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    byte[] bytes;
    try {
      bytes = codec.encode(value);
    } catch (CodecException e) {
      // a value the codec cannot write is the caller's bug, not the node's failure: skip the write
      logRefused("value not stored", e);
      return;
    }
    long millis = Math.max(1, (ttl != null ? ttl : defaultTtl).toMillis());
    try {
      await(commands().set(keyPrefix + key, bytes, SetArgs.Builder.px(millis)));
    } catch (RuntimeException e) {
      throw failure("put", e);
    }
  }

  @Override
  public void evict(String key) {
    try {
      await(commands().unlink(keyPrefix + key));
    } catch (RuntimeException e) {
      throw failure("evict", e);
    }
  }

  /** {@code SCAN MATCH prefix*} and {@code UNLINK} in batches: other keys on the server stay. */
  @Override
  public void clear() {
    try {
      RedisAsyncCommands<String, byte[]> commands = commands();
      ScanArgs args = ScanArgs.Builder.matches(scanPattern).limit(SCAN_BATCH);
      ScanCursor cursor = ScanCursor.INITIAL;
      long removed = 0;
      do {
        KeyScanCursor<String> page = await(commands.scan(cursor, args));
        if (!page.getKeys().isEmpty()) {
          removed += await(commands.unlink(page.getKeys().toArray(new String[0])));
        }
        cursor = page;
      } while (!cursor.isFinished());
      long count = removed;
      LOG.log(
          Level.DEBUG,
          () ->
              "node \"" + id + "\": cleared " + count + " keys under prefix \"" + keyPrefix + "\"");
    } catch (RuntimeException e) {
      throw failure("clear", e);
    }
  }

  @Override
  public void ping() {
    String reply;
    try {
      reply = await(commands().ping());
    } catch (RuntimeException e) {
      throw failure("ping", e);
    }
    if (!"PONG".equals(reply)) {
      throw new CacheNodeException(id, "ping answered \"" + reply + "\" (" + endpoint + ")", null);
    }
  }

  /** -1: counting only this library's keys would need a full {@code SCAN}. */
  @Override
  public long estimatedSize() {
    return -1;
  }

  @Override
  public void close() {
    StatefulRedisConnection<String, byte[]> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = connection;
      connection = null;
    }
    try {
      if (open != null) {
        open.close();
      }
      client.shutdown(0, 2, TimeUnit.SECONDS);
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, () -> "node \"" + id + "\": error while closing: " + e);
    } finally {
      SharedClientResources.release();
    }
  }

  /** {@code redis-node[id, redis://***@host:port/db]}: never a credential. */
  @Override
  public String toString() {
    return "redis-node[" + id + ", " + endpoint + "]";
  }

  /** The server this node talks to, credentials masked. */
  String endpoint() {
    return endpoint.toString();
  }

  /**
   * Waits for a reply up to the node's timeout; a late command is cancelled, so it is never sent if
   * it has not been yet, and its reply is dropped if it has.
   */
  private <T> T await(RedisFuture<T> reply) {
    try {
      return reply.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      reply.cancel(true);
      throw new IllegalStateException("command timed out after " + timeout.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof RuntimeException r
          ? r
          : new IllegalStateException(cause.getMessage(), cause);
    } catch (InterruptedException e) {
      reply.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private RedisAsyncCommands<String, byte[]> commands() {
    StatefulRedisConnection<String, byte[]> open = connection;
    if (open != null) {
      // Lettuce reconnects by itself; while it is away, commands are rejected at once
      return open.async();
    }
    if (closed) {
      throw new IllegalStateException("node is closed");
    }
    CompletableFuture<StatefulRedisConnection<String, byte[]>> pending = connectIfIdle();
    try {
      return pending.get(timeout.toNanos(), TimeUnit.NANOSECONDS).async();
    } catch (TimeoutException e) {
      throw new IllegalStateException("not connected yet", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot connect: " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while connecting", e);
    }
  }

  /**
   * Starts a connection attempt unless one is under way or the last one failed less than a timeout
   * ago; Lettuce's own reconnect only covers connections that were once established.
   */
  private synchronized CompletableFuture<StatefulRedisConnection<String, byte[]>> connectIfIdle() {
    long now = System.nanoTime();
    boolean idle =
        connecting == null
            || (connecting.isCompletedExceptionally()
                && now - lastConnectAttempt >= timeout.toNanos());
    if (idle && !closed) {
      lastConnectAttempt = now;
      // the handshake runs under the URI's (connect) timeout; commands are bounded by await()
      connecting = client.connectAsync(CODEC, uri).toCompletableFuture();
      connecting.thenAccept(this::connected);
    }
    return connecting;
  }

  private void connected(StatefulRedisConnection<String, byte[]> open) {
    boolean keep;
    synchronized (this) {
      keep = !closed;
      if (keep) {
        connection = open;
      }
    }
    if (keep) {
      LOG.log(Level.DEBUG, () -> "node \"" + id + "\": connected to " + endpoint);
    } else {
      open.closeAsync();
    }
  }

  private static boolean wireTraceEnabled() {
    return InternalLoggerFactory.getInstance(WIRE_LOGGER).isTraceEnabled();
  }

  private CacheNodeException failure(String operation, RuntimeException e) {
    return new CacheNodeException(
        id, operation + " failed on " + endpoint + ": " + e.getMessage(), e);
  }

  private void logRefused(String outcome, CodecException e) {
    String what = e.refusedClass() != null ? e.refusedClass() : e.getMessage();
    // once per class at WARNING, then DEBUG: a hot key must not flood the log
    boolean first = loggedClasses.size() < LOGGED_CLASSES_LIMIT && loggedClasses.add(what);
    LOG.log(
        first ? Level.WARNING : Level.DEBUG,
        () -> "node \"" + id + "\": " + outcome + ": " + e.getMessage());
  }

  private static boolean isInstance(Class<?> expected, Object value) {
    if (expected.isPrimitive()) {
      return wrapperOf(expected).isInstance(value);
    }
    return expected.isInstance(value) || value == io.github.chash.cache.NullValue.INSTANCE;
  }

  private static Class<?> wrapperOf(Class<?> primitive) {
    if (primitive == int.class) {
      return Integer.class;
    } else if (primitive == long.class) {
      return Long.class;
    } else if (primitive == boolean.class) {
      return Boolean.class;
    } else if (primitive == double.class) {
      return Double.class;
    } else if (primitive == float.class) {
      return Float.class;
    } else if (primitive == short.class) {
      return Short.class;
    } else if (primitive == byte.class) {
      return Byte.class;
    } else if (primitive == char.class) {
      return Character.class;
    }
    return Void.class;
  }

  /** Ten command timeouts, at least 1 s: TLS handshakes and AUTH take several round trips. */
  private static Duration connectTimeout(Duration timeout) {
    Duration tenTimes = timeout.multipliedBy(10);
    return tenTimes.compareTo(Duration.ofSeconds(1)) > 0 ? tenTimes : Duration.ofSeconds(1);
  }

  private static ClientOptions clientOptions(Duration timeout) {
    Duration connectTimeout = connectTimeout(timeout);
    // the handshake (HELLO, AUTH, SELECT) gets the connect timeout, see redisUri
    return ClientOptions.builder()
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        // commands in flight at a disconnect are dropped, never re-sent after the reconnect
        .replayFilter(command -> true)
        .socketOptions(
            SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).build())
        .build();
  }

  private static RedisURI redisUri(RedisEndpoint endpoint, Duration handshakeTimeout) {
    RedisURI.Builder builder =
        RedisURI.builder()
            .withHost(endpoint.host())
            .withPort(endpoint.port())
            .withSsl(endpoint.ssl())
            .withDatabase(endpoint.database())
            .withTimeout(handshakeTimeout)
            .withClientName("chash");
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

  /** Escapes Redis glob characters, so a prefix like {@code app[1]:} matches itself only. */
  static String globEscape(String prefix) {
    StringBuilder out = new StringBuilder(prefix.length() + 8);
    for (int i = 0; i < prefix.length(); i++) {
      char c = prefix.charAt(i);
      if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\' || c == '^') {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }
}
