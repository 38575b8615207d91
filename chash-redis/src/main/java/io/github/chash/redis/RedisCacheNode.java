package io.github.chash.redis;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.Invalidations;
import io.github.chash.cache.Marker;
import io.github.chash.cache.ValueRefusedException;
import io.github.chash.cache.ValueType;
import io.github.chash.cache.VerbatimKeys;
import io.github.chash.internal.codec.CacheCodecs;
import io.github.chash.internal.codec.MarkerBytes;
import io.github.chash.internal.codec.StoredValues;
import io.github.chash.internal.codec.ValueCodec;
import io.github.chash.internal.keys.KeyBytes;
import io.github.chash.internal.node.ClientStalls;
import io.github.chash.internal.node.Connecting;
import io.github.chash.internal.node.NodeConnection;
import io.github.chash.internal.node.RemoteNode;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.masterreplica.MasterReplica;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link CacheNode} on one Redis (or Valkey) server, through one shared Lettuce connection; or on
 * a Sentinel-managed shard, through two (see below).
 *
 * <p>Every command is bounded by the node's timeout (a slow cache is a miss). While disconnected,
 * commands fail at once instead of queueing, and nothing written before a disconnect is replayed
 * after the reconnect: a late write could resurrect a value the rest of the fleet already replaced.
 * Failures surface as {@link CacheNodeException}s for the cache layer's failure policy. A value
 * larger than {@code maxValueSize} is refused before it is sent and after it is received (never
 * decoded), and a stored value the codec refuses (class outside the allow-list, unreadable bytes,
 * beyond the decoder's bounds, wrong type) is refused too: both are {@link ValueRefusedException}s,
 * logged once per reason at WARNING, because the server is healthy. Keys are the prefix and the
 * routing key in {@link KeyBytes}, so distinct keys stay distinct on the server.
 *
 * <p>A Sentinel-managed shard ({@code redis-sentinel://}) asks its sentinels for the current
 * primary on every (re)connect, so after a promotion Lettuce's reconnect lands on the new primary;
 * the node's id, and so every key's place on the ring, never changes. A promoted replica keeps the
 * shard's entries when the incarnation's record names it as an heir ({@link ServerIncarnation}).
 * Asynchronous replication could lose, at a promotion, a write the old primary acknowledged, so on
 * such a shard a write (a put, an evict, a clear) counts as done only once a replica has it or the
 * record, read after it, names no heir ({@link Heirs}): each is followed by that read and, while
 * heirs are named, {@code WAIT 1 <half the timeout>} on the same connection; a write that did not
 * land fails the call, which makes its outcome unknown to the cache layer (the key is not read
 * there until a write lands). {@code WAIT} blocks the connection it runs on, so writes get a
 * connection of their own and reads never queue behind a replica's acknowledgement. A probe ({@link
 * #ping}) of such a shard succeeds only while its writes can land.
 *
 * <p>A shard whose node reads from replicas ({@code readFrom: replicaPreferred}) has a third
 * connection, Lettuce's own Master/Replica connection over the same sentinels with {@link
 * ReadFrom#REPLICA_PREFERRED}, which finds the replicas and picks one. A read goes there unless
 * this JVM wrote the key and the replicas' replication offsets, read from the primary every {@code
 * replicaLag}, do not show every replica has that write yet ({@link RecentWrites}, {@link
 * ReplicationOffsets}): such a read goes to the primary, so a caller never reads older than its own
 * write, however far a replica lags. The conditional calls' read ({@link #getHeld}) stays on the
 * primary: its version is compared there. Thread-safe.
 */
final class RedisCacheNode extends RemoteNode<StatefulRedisConnection<byte[], byte[]>> {
  private static final System.Logger LOG = System.getLogger(RedisCacheNode.class.getName());
  private static final int SCAN_BATCH = 1000;

  /**
   * The longest server key sent, in bytes. Redis takes keys of up to 512 MB, but a key that long is
   * a bug or an attack: sending it would cost the call its timeout and a healthy node a failure. A
   * longer key is refused before anything is sent, as a value that is too large is.
   */
  static final int MAX_KEY_BYTES = 64 * 1024;

  private final RedisEndpoint endpoint;
  private final String keyPrefix;

  /** The server and key prefix, as {@link LocalChannels} names them. */
  private final String localChannels;

  private final RedisClient client;
  private final RedisURI uri;

  /** The event loops that read this node's replies, checked before a timeout is blamed on it. */
  private final ClientStalls.IoCheck ioThreads;

  /** Whether a write must reach a replica to count (a Sentinel-managed shard). */
  private final boolean replicated;

  /** The {@code WAIT} timeout of a replicated write: half the node's timeout, at least 1 ms. */
  private final long waitMillis;

  /** The connection of reads (and, on a server, of everything). */
  private final Link reads;

  /** The connection of writes: {@link #reads} itself unless writes wait for a replica. */
  private final Link writes;

  /** The connection of replica reads; null unless the node reads from replicas. */
  private final Link replicaReads;

  /** A connection of the node, whose commands wait for it up to the node's timeout. */
  private record Link(NodeConnection<StatefulRedisConnection<byte[], byte[]>> connection) {
    RedisAsyncCommands<byte[], byte[]> commands(Duration timeout) {
      // Lettuce reconnects by itself; while it is away, commands are rejected at once
      return connection.get(timeout).async();
    }
  }

  /** The keys this JVM wrote lately, read from the primary; null without replica reads. */
  private final RecentWrites recentWrites;

  /** Keys read through {@link #replicaReads}. */
  private final LongAdder replicaReadCount = new LongAdder();

  /** The incarnation of the server's data this node reads and writes in. */
  private final ServerIncarnation incarnation = new ServerIncarnation();

  /** The server key of {@link ServerIncarnation}'s record. */
  private final byte[] incarnationKey;

  /** The server's clock, for the deadline every put carries ({@link #PUT}). */
  private final RedisServerTime serverTime = new RedisServerTime();

  /**
   * The periodic refresh of what the node reads from the server: on a replicated shard the record
   * and its heirs ({@link #refreshHeirs}), whose reply carries the server's clock too; elsewhere
   * the clock alone ({@link #refreshTime}).
   */
  private final ScheduledFuture<?> refreshes;

  /** The heirs the record names, on a replicated shard: what its writes need to land. */
  private final Heirs heirs = new Heirs();

  /** Whether a {@link #refreshHeirs} is under way: one at a time. */
  private final AtomicBoolean refreshingHeirs = new AtomicBoolean();

  /** Whether a {@link #learnReplicas} is under way: one at a time. */
  private final AtomicBoolean learningReplicas = new AtomicBoolean();

  /** The invalidation channel of the near caches ({@link #track}); null until asked. */
  private RedisTracking tracking; // guarded by this

  /**
   * Creates the node and starts connecting; {@link #awaitReady} waits for the connections.
   *
   * @param replicaLag null to read from the primary only; else, on a Sentinel-managed shard, reads
   *     go to replicas except for keys this JVM wrote that a replica may not have yet, as the
   *     replication offsets read this often tell
   */
  RedisCacheNode(
      String id,
      RedisEndpoint endpoint,
      String keyPrefix,
      ValueCodec codec,
      Map<String, ValueCodec> cacheCodecs,
      Duration timeout,
      long maxValueSize,
      Duration replicaLag) {
    super(
        id,
        endpoint.toString(),
        timeout,
        CacheCodecs.of(
            codec, cacheCodecs, c -> new StoredValues(id, c, maxValueSize, "redis", LOG)),
        LOG);
    if (replicaLag != null && !endpoint.isSentinel()) {
      // NodeConfig refuses it; checked before anything is acquired
      throw new IllegalArgumentException(
          "node \"" + id + "\": replica reads need a Sentinel-managed shard, not " + endpoint);
    }
    this.endpoint = endpoint;
    this.keyPrefix = keyPrefix;
    this.localChannels = LocalChannels.server(endpoint, keyPrefix);
    this.uri = RedisClients.uri(endpoint, Connecting.timeout(timeout));
    this.client = RedisClient.create(SharedClientResources.acquire());
    client.addListener(incarnation); // before any connection: every drop is seen
    this.incarnationKey = KeyBytes.of(ServerIncarnation.recordKey(keyPrefix));
    this.ioThreads = SharedClientResources.ioThreads();
    client.setOptions(RedisClients.options(timeout));
    RedisClients.warnIfWireTraced(LOG, id, endpoint);
    this.replicated = endpoint.isSentinel();
    this.waitMillis = Math.max(1, timeout.toMillis() / 2);
    this.recentWrites =
        replicaLag == null ? null : new RecentWrites(RECENT_WRITES, System::nanoTime);
    this.reads = link("", this::connectToPrimary);
    this.writes = replicated ? link(" (its write connection)", this::connectToPrimary) : reads;
    this.replicaReads =
        replicaLag == null ? null : link(" (its replica reads)", this::connectToReplicas);
    this.offsetReadings =
        replicaLag == null
            ? null
            : client
                .getResources()
                .eventExecutorGroup()
                .scheduleWithFixedDelay(
                    this::readOffsets,
                    replicaLag.toMillis(),
                    replicaLag.toMillis(),
                    TimeUnit.MILLISECONDS);
    long every = replicated ? Heirs.REFRESH_MILLIS : RedisServerTime.REFRESH_MILLIS;
    this.refreshes =
        client
            .getResources()
            .eventExecutorGroup()
            .scheduleWithFixedDelay(
                replicated ? this::refreshHeirs : this::refreshTime,
                every,
                every,
                TimeUnit.MILLISECONDS);
    if (replicated) {
      learnReplicas(); // before the first vetting if it can: it names the replicas heirs
    }
  }

  /** The replicas' progress, read from the primary; only with replica reads. */
  private final ReplicationOffsets offsets = new ReplicationOffsets();

  /** Whether a reading of the offsets is under way: one at a time. */
  private final AtomicBoolean readingOffsets = new AtomicBoolean();

  /** The periodic {@link #readOffsets}; null without replica reads. */
  private final ScheduledFuture<?> offsetReadings;

  /**
   * Reads the primary's {@code INFO replication} and tells {@link #recentWrites} which writes every
   * replica has ({@link ReplicationOffsets}). Sent only on a connection already up, never waited
   * for; a reading that fails confirms nothing, so the keys stay on the primary.
   */
  private void readOffsets() {
    if (!readingOffsets.compareAndSet(false, true)) {
      return;
    }
    long at = System.nanoTime();
    try {
      reads
          .commands(Duration.ZERO)
          .info("replication")
          .whenComplete(
              (info, failure) -> {
                try {
                  if (info != null) {
                    offsets.read(at, info).ifPresent(recentWrites::confirmedBefore);
                  }
                } catch (RuntimeException e) {
                  LOG.log(Level.DEBUG, "node \"{0}\": unreadable INFO replication", id(), e);
                } finally {
                  readingOffsets.set(false);
                }
              });
    } catch (RuntimeException e) {
      readingOffsets.set(false); // not connected now: the next reading tries again
    }
  }

  /**
   * A connection of the node, started now; one whose attempt failed is tried again when asked for,
   * at most once a timeout: Lettuce's own reconnect only covers connections that were once up. On a
   * Sentinel-managed shard each connect asks the sentinels for the current primary, Lettuce's
   * reconnects too.
   */
  private Link link(
      String role, Supplier<CompletableFuture<StatefulRedisConnection<byte[], byte[]>>> open) {
    // the handshake runs under the URI's (connect) timeout; commands are bounded by await()
    return new Link(connection(role, timeout(), open, StatefulRedisConnection::closeAsync));
  }

  /**
   * How many keys' writes {@link RecentWrites} tracks one by one: 16 bytes and a key each; beyond,
   * the whole node reads from the primary for a lag.
   */
  private static final int RECENT_WRITES = 100_000;

  private CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connectToPrimary() {
    return client.connectAsync(ByteArrayCodec.INSTANCE, uri).toCompletableFuture();
  }

  /** Lettuce finds the replicas through the sentinels and picks one per read; none: the primary. */
  private CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connectToReplicas() {
    return MasterReplica.connectAsync(client, ByteArrayCodec.INSTANCE, uri)
        .<StatefulRedisConnection<byte[], byte[]>>thenApply(
            open -> {
              open.setReadFrom(ReadFrom.REPLICA_PREFERRED);
              return open;
            });
  }

  /**
   * The connection a read of {@code key} goes to: a replica's unless this JVM wrote the key within
   * the lag, or the node reads from the primary only. Counts the replica reads.
   */
  private Link readsOf(String key) {
    if (replicaReads == null || recentWrites.needsPrimary(key)) {
      return reads;
    }
    replicaReadCount.increment();
    return replicaReads;
  }

  /** Notes a finished write of {@code key} for read-your-writes; nothing without replica reads. */
  private void wrote(String key) {
    if (recentWrites != null) {
      recentWrites.wrote(key);
    }
  }

  /** {@link #wrote} for a write of keys it does not name (a clear, a sweep). */
  private void wroteAll() {
    if (recentWrites != null) {
      recentWrites.wroteAll();
    }
  }

  /** A Sentinel-managed shard: its sentinels promote a replica when its primary dies. */
  @Override
  public boolean promotesReplica() {
    return replicated;
  }

  /** Reads of keys sent to replicas ({@code readFrom: replicaPreferred}); 0 for other nodes. */
  @Override
  public long replicaReadCount() {
    return replicaReadCount.sum();
  }

  /**
   * Opens this node's invalidation channel ({@link RedisTracking}): a connection of its own with
   * {@code CLIENT TRACKING ON BCAST} for the routing-key prefixes under this node's {@code
   * keyPrefix}. A node that reads from replicas has none: a change the primary reports may not have
   * reached the replica the next read goes to.
   */
  @Override
  public boolean track(List<String> routingKeyPrefixes, Invalidations listener) {
    if (replicaReads != null) {
      return false;
    }
    RedisTracking started;
    synchronized (this) {
      if (isClosed()) {
        throw new IllegalStateException("node \"" + id() + "\" is closed");
      }
      if (tracking != null) {
        throw new IllegalStateException("node \"" + id() + "\" tracks changes already");
      }
      tracking =
          new RedisTracking(
              id(),
              endpoint,
              RedisClients.uri(endpoint, Connecting.timeout(timeout())),
              keyPrefix,
              routingKeyPrefixes,
              listener,
              Connecting.timeout(timeout()));
      started = tracking;
    }
    started.start();
    return true;
  }

  /**
   * Tells the tracking channels of this JVM's other managers on this server ({@link
   * LocalChannels}).
   */
  @Override
  public void writing(String key) {
    LocalChannels.writing(localChannels, key);
  }

  @Override
  public Object get(String key, ValueType type) {
    byte[] serverKey = key(key);
    byte[] bytes;
    ServerIncarnation.Vetted in;
    try {
      in = vet();
      bytes = await(readsOf(key).commands(timeout()).get(serverKey));
      confirm(in);
    } catch (RuntimeException e) {
      throw failure("get", e);
    }
    return valueOf(key, bytes, type, in);
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    byte[] serverKey = key(key);
    byte[] bytes = payload(key, value);
    try {
      ServerIncarnation.Vetted in = vet();
      RedisAsyncCommands<byte[], byte[]> commands = writes.commands(timeout());
      Long applied =
          run(
              commands,
              PUT,
              ScriptOutputType.INTEGER,
              new byte[][] {serverKey},
              putArgs(stored(key, bytes, value, in), ttl, writeDeadline()),
              true,
              deadline());
      requireInTime(applied);
    } catch (ValueRefusedException late) {
      throw late;
    } catch (RuntimeException e) {
      throw failure("put", e);
    } finally {
      wrote(key); // failed too: its outcome is unknown, it may be on the primary
    }
  }

  /**
   * Waits for a write's reply and, on a replicated shard, for what tells whether it landed, sent
   * right after it on the same connection ({@link Landing}), all within one timeout; fails unless
   * it landed.
   *
   * @return the write's reply
   */
  private <T> T awaitWrite(RedisAsyncCommands<byte[], byte[]> commands, RedisFuture<T> reply) {
    return awaitWrite(commands, reply, deadline());
  }

  /** {@link #awaitWrite(RedisAsyncCommands, RedisFuture)} within a deadline already running. */
  private <T> T awaitWrite(
      RedisAsyncCommands<byte[], byte[]> commands,
      RedisFuture<T> reply,
      ClientStalls.Deadline deadline) {
    Landing landing = replicated ? landing(commands) : null;
    T written;
    try {
      written = await(reply, deadline);
    } catch (RuntimeException e) {
      if (landing != null) {
        landing.cancel();
      }
      throw e;
    }
    if (landing != null) {
      requireLanded(commands, landing, deadline);
    }
    return written;
  }

  /**
   * What tells whether the writes sent before it on a connection of a replicated shard landed
   * ({@link Heirs}): the incarnation's record, read after them, and a {@code WAIT 1} when the last
   * record seen named an heir.
   *
   * @param record the record's {@code GET}
   * @param acks the {@code WAIT 1}, or null: sent only once the record names an heir
   */
  private record Landing(RedisFuture<byte[]> record, RedisFuture<Long> acks) {
    void cancel() {
      record.cancel(true);
      if (acks != null) {
        acks.cancel(true);
      }
    }
  }

  /** {@return the {@link Landing} of the writes sent so far on the connection} */
  private Landing landing(RedisAsyncCommands<byte[], byte[]> commands) {
    return new Landing(
        commands.get(incarnationKey),
        heirs.expected() ? commands.waitForReplication(1, waitMillis) : null);
  }

  /**
   * Fails unless the writes before the {@link Landing} landed: no heir named, or a replica has
   * them.
   */
  private void requireLanded(
      RedisAsyncCommands<byte[], byte[]> commands,
      Landing landing,
      ClientStalls.Deadline deadline) {
    await(landed(commands, landing), deadline);
  }

  /**
   * {@link #requireLanded}, not waiting: completes once it is known, exceptionally unless landed.
   */
  private CompletableFuture<Void> landed(
      RedisAsyncCommands<byte[], byte[]> commands, Landing landing) {
    return landing
        .record()
        .toCompletableFuture()
        .thenCompose(
            record ->
                heirsNamed(record)
                    ? acks(commands, landing).toCompletableFuture().thenAccept(this::requireReplica)
                    : CompletableFuture.completedFuture(null));
  }

  /** {@return whether the record read names an heir, which the next writes then expect} */
  private boolean heirsNamed(byte[] record) {
    boolean named = Heirs.named(record);
    heirs.saw(named);
    return named;
  }

  /** {@return the landing's {@code WAIT 1}, sent now if it was not sent along} */
  private RedisFuture<Long> acks(RedisAsyncCommands<byte[], byte[]> commands, Landing landing) {
    return landing.acks() != null ? landing.acks() : commands.waitForReplication(1, waitMillis);
  }

  private void requireReplica(long acks) {
    if (acks < 1) {
      throw new IllegalStateException(notReplicated());
    }
  }

  private String notReplicated() {
    return "no replica acknowledged within "
        + waitMillis
        + " ms while the shard's record names heirs, so a failover could lose the writes: they do"
        + " not count as landed until one does";
  }

  /** {@code GET} and {@code PTTL} pipelined: one round trip. */
  @Override
  public StoredEntry getEntry(String key, ValueType type) {
    byte[] serverKey = key(key);
    byte[] bytes;
    long pttl;
    ServerIncarnation.Vetted in;
    try {
      in = vet();
      RedisAsyncCommands<byte[], byte[]> commands = readsOf(key).commands(timeout());
      RedisFuture<byte[]> value = commands.get(serverKey);
      RedisFuture<Long> ttl = commands.pttl(serverKey);
      ClientStalls.Deadline deadline = deadline();
      bytes = await(value, deadline);
      pttl = await(ttl, deadline);
      confirm(in);
    } catch (RuntimeException e) {
      throw failure("get", e);
    }
    // -2: expired between the two
    Object value = pttl == -2 ? null : valueOf(key, bytes, type, in);
    return value == null ? null : new StoredEntry(value, pttl < 0 ? null : Duration.ofMillis(pttl));
  }

  /**
   * {@code SCAN MATCH prefix*} in batches of 1000, the doomed ones {@code UNLINK}ed, pausing
   * between batches to stay under {@code keysPerSecond}.
   */
  @Override
  public long deleteKeys(java.util.function.Predicate<String> doomed, int keysPerSecond) {
    long deleted = 0;
    byte[] prefix = KeyBytes.of(keyPrefix);
    try {
      RedisAsyncCommands<byte[], byte[]> commands = writes.commands(timeout());
      ScanArgs args =
          ScanArgs.Builder.matches(KeyBytes.of(globEscape(keyPrefix) + "*")).limit(SCAN_BATCH);
      ScanCursor cursor = ScanCursor.INITIAL;
      do {
        long started = System.nanoTime();
        KeyScanCursor<byte[]> page = await(commands.scan(cursor, args));
        List<byte[]> gone = new ArrayList<>();
        for (byte[] serverKey : page.getKeys()) {
          // the routing key as it was written (KeyBytes), not as UTF-8 reads it: a key with an
          // unpaired surrogate must be judged as itself
          String routingKey =
              KeyBytes.toKey(serverKey, prefix.length, serverKey.length - prefix.length);
          if (routingKey != null
              && !Arrays.equals(serverKey, incarnationKey)
              && doomed.test(routingKey)) {
            gone.add(serverKey);
          }
        }
        if (!gone.isEmpty()) {
          deleted += await(commands.unlink(gone.toArray(new byte[0][])));
        }
        cursor = page;
        pace(started, page.getKeys().size(), keysPerSecond);
      } while (!cursor.isFinished() && !isClosed());
      if (replicated && deleted > 0) {
        requireLanded(commands, landing(commands), deadline());
      }
    } catch (RuntimeException e) {
      throw failure("sweep", e);
    } finally {
      wroteAll();
    }
    return deleted;
  }

  /** Sleeps so that {@code keys} keys took at least {@code keys / keysPerSecond} seconds. */
  private static void pace(long startedNanos, int keys, int keysPerSecond) {
    long due = startedNanos + keys * 1_000_000_000L / Math.max(1, keysPerSecond);
    long wait = due - System.nanoTime();
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  /** {@code MGET} of all the keys: one round trip, awaited by the caller. */
  @Override
  public CompletableFuture<Map<String, Object>> getAll(List<String> keys, ValueType type) {
    Map<String, Object> refused = new HashMap<>();
    List<String> sent = new ArrayList<>(keys.size());
    List<byte[]> serverKeys = new ArrayList<>(keys.size());
    for (String key : keys) {
      try {
        serverKeys.add(key(key));
        sent.add(key);
      } catch (ValueRefusedException e) {
        refused.put(key, e); // too long to send: refused, as an undecodable value is
      }
    }
    if (sent.isEmpty()) {
      return CompletableFuture.completedFuture(refused);
    }
    RedisFuture<List<KeyValue<byte[], byte[]>>> reply;
    ServerIncarnation.Vetted in;
    try {
      in = vet();
      reply = readsOfAll(sent).commands(timeout()).mget(serverKeys.toArray(new byte[0][]));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(failure("get", e));
    }
    return bounded(reply, "get")
        .thenApply(
            values -> {
              confirmed(in, "get");
              Map<String, Object> found = new HashMap<>(refused);
              for (int i = 0; i < values.size(); i++) {
                KeyValue<byte[], byte[]> kv = values.get(i);
                if (kv.hasValue()) {
                  try {
                    Object value = valueOf(sent.get(i), kv.getValue(), type, in);
                    if (value != null) {
                      found.put(sent.get(i), value);
                    }
                  } catch (ValueRefusedException e) {
                    found.put(sent.get(i), e);
                  }
                }
              }
              return found;
            });
  }

  /** {@link #readsOf} for one {@code MGET}: the primary if any of its keys needs it. */
  private Link readsOfAll(List<String> keys) {
    if (replicaReads == null) {
      return reads;
    }
    for (String key : keys) {
      if (recentWrites.needsPrimary(key)) {
        return reads;
      }
    }
    replicaReadCount.add(keys.size());
    return replicaReads;
  }

  /** One {@code SET} a key, pipelined on the connection: one round trip for all of them. */
  @Override
  public CompletableFuture<Map<String, ValueRefusedException>> putAll(
      Map<String, Object> values, Duration ttl) {
    // written by the caller and, for late puts, by the replies' thread
    Map<String, ValueRefusedException> refusals = new ConcurrentHashMap<>();
    List<CompletableFuture<?>> replies = new ArrayList<>();
    RedisAsyncCommands<byte[], byte[]> commands;
    Landing landing = null;
    try {
      ServerIncarnation.Vetted in = vet();
      commands = writes.commands(timeout());
      long deadlineMicros = writeDeadline();
      values.forEach(
          (key, value) -> {
            byte[] serverKey;
            byte[] bytes;
            try {
              serverKey = key(key);
              bytes = stored(key, payload(key, value), value, in);
            } catch (ValueRefusedException e) {
              refusals.put(key, e);
              return;
            }
            replies.add(
                commands
                    .<Long>evalsha(
                        PUT.sha(),
                        ScriptOutputType.INTEGER,
                        new byte[][] {serverKey},
                        putArgs(bytes, ttl, deadlineMicros))
                    .toCompletableFuture()
                    .thenAccept(
                        applied -> {
                          if (!inTime(applied)) {
                            refusals.put(key, late());
                          }
                        }));
          });
      if (replicated && !replies.isEmpty()) {
        landing = landing(commands); // sent after every SET on the same connection: covers them all
      }
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(failure("put", e));
    }
    Landing sent = landing;
    CompletableFuture<Void> all =
        CompletableFuture.allOf(replies.toArray(new CompletableFuture<?>[0]))
            .thenCompose(
                done ->
                    sent == null
                        ? CompletableFuture.completedFuture(null)
                        : landed(commands, sent));
    return bounded(all, "put")
        .whenComplete((done, failed) -> values.keySet().forEach(this::wrote))
        .thenApply(done -> refusals);
  }

  /**
   * A put: {@code SET}, with the expiry, unless the server's clock is past the write's deadline
   * ({@link RedisServerTime}), when nothing is written: a write that reached the server after its
   * caller gave up never lands over a newer one. {@code ARGV}: the stored bytes, the expiry in ms
   * (0: none), the deadline in the server's µs (0: none). Returns 1 when written, 0 when late.
   */
  private static final LuaScript PUT =
      LuaScript.of(
          "local now = redis.call('TIME') "
              + "if ARGV[3] ~= '0' and "
              + "tonumber(now[1]) * 1000000 + tonumber(now[2]) > tonumber(ARGV[3]) then return 0 end "
              + "if ARGV[2] == '0' then redis.call('SET', KEYS[1], ARGV[1]) "
              + "else redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 1");

  /** {@return {@link #PUT}'s arguments} */
  private static byte[][] putArgs(byte[] stored, Duration ttl, long deadlineMicros) {
    return new byte[][] {
      stored,
      KeyBytes.of(Long.toString(expiryMillis(ttl))),
      KeyBytes.of(Long.toString(deadlineMicros))
    };
  }

  /** {@return the server-clock deadline of a write whose wait starts now: one timeout} */
  private long writeDeadline() {
    return serverTime.deadlineMicros(timeout().toNanos());
  }

  /**
   * Refuses a {@link #PUT} the server did not apply because it came late. Nothing was written, and
   * the server is healthy (a client starved of CPU sends late): a refusal, not a failure of the
   * node, after which the cache layer deletes the key, so no older value stays readable.
   */
  private void requireInTime(Long applied) {
    if (!inTime(applied)) {
      throw late();
    }
  }

  /** {@return whether {@link #PUT} answered that it wrote} */
  private static boolean inTime(Long applied) {
    return applied != null && applied == 1L;
  }

  private ValueRefusedException late() {
    return new ValueRefusedException(
        "node \""
            + id()
            + "\": the put reached the server after its deadline (its call's start plus"
            + " the timeout, "
            + timeout().toMillis()
            + " ms), so it was not applied",
        null);
  }

  /**
   * {@return the value stored bytes hold; null for none, or for a {@link Marker} (a lease or a
   * tombstone), which reads as a miss}
   */
  private Object valueOf(String key, byte[] bytes, ValueType type, ServerIncarnation.Vetted in) {
    byte[] own = own(key, bytes, in);
    return own == null || MarkerBytes.decode(own) != null ? null : values(key).decode(own, type);
  }

  /**
   * {@return the tag calls run under ({@link ServerIncarnation}), vetted first when a connection of
   * the node dropped since: one script on the primary, with the node's timeout of its own, so the
   * command that follows has its own too}
   */
  private ServerIncarnation.Vetted vet() {
    ServerIncarnation.Vetted in = incarnation.current();
    return in != null ? in : vet(deadline()); // no deadline on the common path: nothing is sent
  }

  /** {@link #vet()} within the given deadline. */
  private ServerIncarnation.Vetted vet(ClientStalls.Deadline deadline) {
    ServerIncarnation.Vetted in = incarnation.current();
    while (in == null) {
      long drops = incarnation.drops();
      serverTime.forget(); // the server may be another process, on another host
      long sent = System.nanoTime();
      // on the read connection (the primary's): a call never waits for the write connection,
      // which a replicated shard keeps apart, nor for a replica (a lost record is a new tag)
      byte[] reply =
          run(
              reads.commands(timeout()),
              VET,
              ScriptOutputType.VALUE,
              new byte[][] {incarnationKey},
              heirs.vetArgs(ServerIncarnation.newTag()),
              false,
              deadline);
      ServerIncarnation.VetReply vetted = vetted(reply);
      readTime(vetted.serverMicros(), sent);
      reads.commands(timeout()).scriptLoad(PUT.text()); // for putAll's EVALSHA; not waited for
      in = incarnation.vetted(drops, vetted.tag());
    }
    return in;
  }

  /** {@return the vetting script's reply}, its heirs noted on a replicated shard */
  private ServerIncarnation.VetReply vetted(byte[] reply) {
    ServerIncarnation.VetReply vetted =
        ServerIncarnation.VetReply.parse(new String(reply, StandardCharsets.US_ASCII));
    if (replicated && heirs.vetted(vetted)) {
      learnReplicas(); // the next vetting names them
    }
    return vetted;
  }

  /**
   * Takes a reading of the server's clock sent at {@code sentNanos} and answered now, unless its
   * round trip took longer than a timeout: half of it would be off, more than a write may lose.
   */
  private void readTime(long serverMicros, long sentNanos) {
    long replied = System.nanoTime();
    if (replied - sentNanos <= timeout().toNanos()) {
      serverTime.read(serverMicros, sentNanos, replied);
    }
  }

  /**
   * Reads the server's clock ({@code TIME}) every {@link RedisServerTime#REFRESH_MILLIS}, as the
   * clocks drift apart. Sent only on a connection already up, never waited for.
   */
  private void refreshTime() {
    if (incarnation.current() == null) {
      return; // not vetted since the last drop: the vetting reads it
    }
    long sent = System.nanoTime();
    try {
      reads
          .commands(Duration.ZERO)
          .time()
          .thenAccept(
              time ->
                  readTime(
                      Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1_000_000
                          + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)),
                      sent));
    } catch (RuntimeException notConnected) {
      // the next refresh, or the next vetting, reads it
    }
  }

  /**
   * Vets the record again on a replicated shard, every {@link Heirs#REFRESH_MILLIS}, so that
   * replicas that came online are named heirs (and replaced ones dropped) without waiting for a
   * reconnect, and reads the server's clock from its reply. Sent only on a connection already up,
   * never waited for; the tag calls run under changes only on a drop, as ever.
   */
  private void refreshHeirs() {
    if (!refreshingHeirs.compareAndSet(false, true)) {
      return;
    }
    long sent = System.nanoTime();
    try {
      RedisAsyncCommands<byte[], byte[]> commands = reads.commands(Duration.ZERO);
      byte[][] keys = {incarnationKey};
      byte[][] args = heirs.vetArgs(ServerIncarnation.newTag());
      commands
          .<byte[]>evalsha(VET.sha(), ScriptOutputType.VALUE, keys, args)
          .toCompletableFuture()
          .exceptionallyCompose(
              failure ->
                  failure instanceof RedisNoScriptException // scripts flushed: send the text once
                      ? commands
                          .<byte[]>eval(VET.text(), ScriptOutputType.VALUE, keys, args)
                          .toCompletableFuture()
                      : CompletableFuture.failedFuture(failure))
          .whenComplete(
              (reply, failure) -> {
                try {
                  if (reply != null) {
                    long serverMicros = vetted(reply).serverMicros();
                    if (incarnation.current() != null) { // else the next vetting reads the clock
                      readTime(serverMicros, sent);
                    }
                  }
                } finally {
                  refreshingHeirs.set(false);
                }
              });
    } catch (RuntimeException e) {
      refreshingHeirs.set(false); // not connected now: the next refresh tries again
    }
  }

  /**
   * Asks the sentinels for the shard's replicas, for the {@code run_id} by which the record names
   * heirs ({@link Heirs#learn}); one question at a time, never waited for.
   */
  private void learnReplicas() {
    if (!learningReplicas.compareAndSet(false, true)) {
      return;
    }
    try {
      client
          .connectSentinelAsync(StringCodec.UTF8, uri)
          .thenCompose(
              sentinel ->
                  sentinel
                      .async()
                      .replicas(endpoint.masterName())
                      .toCompletableFuture()
                      .whenComplete((replicas, failure) -> sentinel.closeAsync()))
          .whenComplete(
              (replicas, failure) -> {
                if (replicas != null) {
                  heirs.learn(replicas);
                } else {
                  LOG.log(
                      Level.DEBUG, "node \"{0}\": no sentinel named the replicas", id(), failure);
                }
                learningReplicas.set(false);
              });
    } catch (RuntimeException e) {
      learningReplicas.set(false);
    }
  }

  /**
   * Vets the server's incarnation as soon as a connection is up, within what is left of the start's
   * wait, so that the first calls after startup (a cold burst, perhaps on a starved client) do not
   * each pay for it; one that could not be vetted now is vetted by the first call.
   */
  @Override
  protected boolean ready(StatefulRedisConnection<byte[], byte[]> open, long deadlineNanos) {
    long left = deadlineNanos - System.nanoTime();
    if (left > 0) {
      try {
        vet(ClientStalls.deadline(Duration.ofNanos(left), ioCheck()));
      } catch (RuntimeException notNow) {
        // not a failure of the start: the first call vets it
      }
    }
    return true;
  }

  /** Fails a call during which a connection dropped: its reply may come from a restarted server. */
  private void confirm(ServerIncarnation.Vetted in) {
    if (!incarnation.unchangedSince(in)) {
      throw new IllegalStateException(
          "a connection of the node dropped during the call: the server may have restarted");
    }
  }

  /** {@link #confirm} inside a future: a failure of the node's, as {@link #bounded} makes them. */
  private void confirmed(ServerIncarnation.Vetted in, String operation) {
    try {
      confirm(in);
    } catch (IllegalStateException e) {
      throw failure(operation, e);
    }
  }

  /** {@return what the server stores for a value's bytes: a verbatim key's as they are} */
  private static byte[] stored(
      String key, byte[] bytes, Object value, ServerIncarnation.Vetted in) {
    return VerbatimKeys.isVerbatim(key) ? bytes : ServerIncarnation.wrap(in.header(), bytes, value);
  }

  /** {@return a stored entry's own bytes; null for none, or one of another incarnation} */
  private static byte[] own(String key, byte[] stored, ServerIncarnation.Vetted in) {
    return VerbatimKeys.isVerbatim(key) ? stored : ServerIncarnation.unwrap(in.header(), stored);
  }

  // The conditional calls: each one script, atomic on the server; a time to live of 0 is none.
  // Every script gets the tag's bytes ({@link ServerIncarnation}; empty for a verbatim key): an
  // entry that does not start with them is of another incarnation, and counts as nothing held.
  private static final String HELD =
      "local function held(v) return v and (ARGV[1] == '' or string.sub(v, 1, 12) == ARGV[1]) end ";
  private static final LuaScript PUT_IF =
      LuaScript.of(
          HELD
              + "local v = redis.call('GET', KEYS[1]) "
              + "if ARGV[2] == '1' then if held(v) then return 0 end elseif v ~= ARGV[3] then return 0 end "
              + "if ARGV[5] == '0' then redis.call('SET', KEYS[1], ARGV[4]) "
              + "else redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[5]) end return 1");
  private static final LuaScript DELETE_IF =
      LuaScript.of(
          "if redis.call('GET', KEYS[1]) == ARGV[2] then redis.call('DEL', KEYS[1]) return 1 end"
              + " return 0");
  private static final LuaScript LEASE =
      LuaScript.of(
          HELD
              + "local v = redis.call('GET', KEYS[1]) "
              + "local at = ARGV[1] == '' and 1 or 21 "
              + "local m = string.sub(v or '', at, at + 4) "
              + "if held(v) and (string.sub(m, 1, 4) ~= string.sub(ARGV[3], 1, 4) "
              + "or m == ARGV[3]) then return 0 end "
              + "redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[4]) return 1");
  private static final byte[] NONE = new byte[0];

  @Override
  public boolean conditional() {
    return true;
  }

  /** {@code GET} and {@code PTTL} pipelined: one round trip, not awaited here. */
  @Override
  public CompletableFuture<Held> getHeld(String key, ValueType type) {
    byte[] serverKey;
    RedisFuture<byte[]> value;
    RedisFuture<Long> ttl;
    ServerIncarnation.Vetted in;
    try {
      serverKey = key(key);
      in = vet();
      // on the primary even with replica reads: the version read is compared there
      RedisAsyncCommands<byte[], byte[]> commands = reads.commands(timeout());
      value = commands.get(serverKey);
      ttl = commands.pttl(serverKey);
    } catch (ValueRefusedException e) {
      return CompletableFuture.failedFuture(e);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(failure("get", e));
    }
    record Raw(byte[] bytes, long pttl) {}
    return bounded(value.toCompletableFuture().thenCombine(ttl, Raw::new), "get")
        .thenApply(
            raw -> {
              confirmed(in, "get");
              byte[] own = raw.pttl == -2 ? null : own(key, raw.bytes, in);
              if (own == null) {
                return Held.NOTHING;
              }
              Duration left = raw.pttl < 0 ? null : Duration.ofMillis(raw.pttl);
              Marker marker = MarkerBytes.decode(own);
              // the version compared is the whole stored entry, its random version included
              return marker != null
                  ? new Held(null, marker, left, raw.bytes)
                  : new Held(values(key).decode(own, type), null, left, raw.bytes);
            });
  }

  @Override
  public boolean putIf(String key, Held expected, Object value, Duration ttl) {
    byte[] was = expected.version() instanceof byte[] b ? b : null;
    return script(
        "putIf",
        PUT_IF,
        key,
        in ->
            new byte[][] {
              was == null ? ONE : ZERO,
              was == null ? NONE : was,
              stored(key, payload(key, value), value, in),
              ttlArg(ttl)
            });
  }

  @Override
  public boolean putIfLeased(String key, Marker lease, Object value, Duration ttl) {
    return script(
        "putIf",
        PUT_IF,
        key,
        in ->
            new byte[][] {
              ZERO,
              stored(key, MarkerBytes.encode(lease), lease, in),
              stored(key, payload(key, value), value, in),
              ttlArg(ttl)
            });
  }

  @Override
  public boolean deleteIf(String key, Held expected) {
    if (!(expected.version() instanceof byte[] was)) {
      return false; // nothing was held: nothing to delete
    }
    return script("deleteIf", DELETE_IF, key, in -> new byte[][] {was});
  }

  @Override
  public boolean deleteIfLeased(String key, Marker lease) {
    return script(
        "deleteIf",
        DELETE_IF,
        key,
        in -> new byte[][] {stored(key, MarkerBytes.encode(lease), lease, in)});
  }

  @Override
  public boolean lease(String key, Marker lease, Duration ttl) {
    return script(
        "lease",
        LEASE,
        key,
        in ->
            new byte[][] {
              stored(key, MarkerBytes.encode(lease), lease, in),
              MarkerBytes.LEASE_PREFIX,
              ttlArg(ttl)
            });
  }

  private static final byte[] ONE = {'1'};
  private static final byte[] ZERO = {'0'};

  private static byte[] ttlArg(Duration ttl) {
    return KeyBytes.of(Long.toString(expiryMillis(ttl))); // 0: no expiry
  }

  /** The vetting of the server's incarnation ({@link ServerIncarnation#VET}). */
  private static final LuaScript VET = LuaScript.of(ServerIncarnation.VET);

  /**
   * Runs a script by its SHA ({@code EVALSHA}); a server without it (restarted, or its scripts
   * flushed) answers {@code NOSCRIPT} without running anything, and is sent the text ({@code EVAL},
   * which also caches it) under a deadline of its own: the server answered the first in time, and a
   * caller thread queued behind others before sending the second is not the server's delay. A
   * {@code durable} script's reply counts, on a replicated shard, once a replica has what it wrote
   * ({@link #awaitWrite}).
   */
  private <T> T run(
      RedisAsyncCommands<byte[], byte[]> commands,
      LuaScript script,
      ScriptOutputType type,
      byte[][] keys,
      byte[][] args,
      boolean durable,
      ClientStalls.Deadline deadline) {
    try {
      RedisFuture<T> reply = commands.evalsha(script.sha(), type, keys, args);
      return durable ? awaitWrite(commands, reply, deadline) : await(reply, deadline);
    } catch (RedisNoScriptException unknown) {
      RedisFuture<T> reply = commands.eval(script.text(), type, keys, args);
      return durable ? awaitWrite(commands, reply) : await(reply);
    }
  }

  /**
   * Runs a conditional script on the write connection ({@link #run}), with the vetted tag's bytes
   * as its first argument and then {@code args} of that tag. The vetting and the script each have
   * the node's timeout from when they are sent: a timeout says the server did not answer one
   * command in time, never that this client's thread waited for a core between two of them.
   *
   * @return true when the script applied its change
   */
  private boolean script(
      String operation,
      LuaScript script,
      String key,
      Function<ServerIncarnation.Vetted, byte[][]> args) {
    byte[] serverKey = key(key);
    byte[][] keys = {serverKey};
    Long applied;
    try {
      ServerIncarnation.Vetted in = vet();
      byte[][] rest = args.apply(in);
      byte[][] all = new byte[rest.length + 1][];
      all[0] = VerbatimKeys.isVerbatim(key) ? NONE : in.header();
      System.arraycopy(rest, 0, all, 1, rest.length);
      RedisAsyncCommands<byte[], byte[]> commands = writes.commands(timeout());
      applied = run(commands, script, ScriptOutputType.INTEGER, keys, all, true, deadline());
      confirm(in);
    } catch (ValueRefusedException e) {
      throw e;
    } catch (RuntimeException e) {
      throw failure(operation, e);
    } finally {
      wrote(key);
    }
    return applied != null && applied == 1L;
  }

  @Override
  public void evict(String key) {
    byte[] serverKey = key(key);
    try {
      RedisAsyncCommands<byte[], byte[]> commands = writes.commands(timeout());
      awaitWrite(commands, commands.unlink(serverKey));
    } catch (RuntimeException e) {
      throw failure("evict", e);
    } finally {
      wrote(key);
    }
  }

  /** {@code SCAN MATCH prefix*} and {@code UNLINK} in batches: other keys on the server stay. */
  @Override
  public void clear() {
    deleteMatching(globEscape(keyPrefix) + "*", "clear");
  }

  @Override
  public void clear(String routingKeyPrefix) {
    deleteMatching(globEscape(keyPrefix + routingKeyPrefix) + "*", "clear");
  }

  private void deleteMatching(String pattern, String operation) {
    try {
      RedisAsyncCommands<byte[], byte[]> commands = writes.commands(timeout());
      ScanArgs args = ScanArgs.Builder.matches(KeyBytes.of(pattern)).limit(SCAN_BATCH);
      ScanCursor cursor = ScanCursor.INITIAL;
      long removed = 0;
      do {
        KeyScanCursor<byte[]> page = await(commands.scan(cursor, args));
        // the incarnation's record stays: without it every JVM's entries would read as nothing
        byte[][] doomed =
            page.getKeys().stream()
                .filter(k -> !Arrays.equals(k, incarnationKey))
                .toArray(byte[][]::new);
        if (doomed.length > 0) {
          removed += await(commands.unlink(doomed));
        }
        cursor = page;
      } while (!cursor.isFinished());
      if (replicated && removed > 0) {
        requireReplica(await(commands.waitForReplication(1, waitMillis)));
      }
      long count = removed;
      LOG.log(
          Level.DEBUG,
          () -> "node \"" + id() + "\": deleted " + count + " keys matching \"" + pattern + "\"");
    } catch (RuntimeException e) {
      throw failure(operation, e);
    } finally {
      wroteAll();
    }
  }

  /**
   * {@code PING}; on a replicated shard also what its writes need to land ({@link Heirs}) on the
   * write connection: a {@code WAIT 1} while the record names heirs, which answers at once while a
   * replica has every write of that connection and fails the probe when none is attached. A shard
   * whose writes cannot land is not readmitted.
   */
  @Override
  public void ping() {
    String reply;
    try {
      reply = await(reads.commands(timeout()).ping());
      if (replicated) {
        RedisAsyncCommands<byte[], byte[]> commands = writes.commands(timeout());
        requireLanded(commands, landing(commands), deadline());
      }
    } catch (RuntimeException e) {
      throw failure("ping", e);
    }
    if (!"PONG".equals(reply)) {
      throw new CacheNodeException(
          id(), "ping answered \"" + reply + "\" (" + endpoint + ")", null);
    }
  }

  /** -1: counting only this library's keys would need a full {@code SCAN}. */
  @Override
  public long estimatedSize() {
    return -1;
  }

  /** The tracking channel, the connections, the client, and this node's share of the loops. */
  @Override
  protected void shutdown(List<StatefulRedisConnection<byte[], byte[]>> open) {
    refreshes.cancel(false);
    if (offsetReadings != null) {
      offsetReadings.cancel(false);
    }
    RedisTracking channel;
    synchronized (this) {
      channel = tracking; // none is started once closed
    }
    try {
      if (channel != null) {
        channel.close();
      }
      open.forEach(StatefulRedisConnection::close);
      client.shutdown(0, 2, TimeUnit.SECONDS);
    } finally {
      SharedClientResources.release();
    }
  }

  /** {@code redis-node[id, redis://***@host:port/db]}: never a credential. */
  @Override
  public String toString() {
    return "redis-node[" + id() + ", " + endpoint + "]";
  }

  /**
   * The server's key: the prefix and the routing key, in {@link KeyBytes}; a verbatim cache's key
   * as the application gave it ({@link VerbatimKeys}), where a peer client reads and writes it.
   *
   * @throws ValueRefusedException if it is longer than {@link #MAX_KEY_BYTES}, or a verbatim key
   *     lies under the key prefix ({@link VerbatimKeys#prefixProblem})
   */
  private byte[] key(String routingKey) {
    String stored;
    if (VerbatimKeys.isVerbatim(routingKey)) {
      stored = VerbatimKeys.key(routingKey);
      String problem = VerbatimKeys.prefixProblem(stored, keyPrefix);
      if (problem != null) {
        throw keyRefused(problem);
      }
    } else {
      stored = keyPrefix.concat(routingKey);
    }
    int chars = stored.length();
    if (chars > MAX_KEY_BYTES) { // a char takes one byte at least
      throw keyRefused(tooLong(chars + " chars"));
    }
    byte[] serverKey = KeyBytes.of(stored);
    if (serverKey.length > MAX_KEY_BYTES) {
      throw keyRefused(tooLong(serverKey.length + " bytes"));
    }
    return serverKey;
  }

  /** A key refused before anything is sent: the caller's, never a failure of the node. */
  private ValueRefusedException keyRefused(String problem) {
    return new ValueRefusedException("node \"" + id() + "\": " + problem, null);
  }

  private static String tooLong(String size) {
    return "a key of "
        + size
        + " is longer than the "
        + MAX_KEY_BYTES
        + " bytes a key may have; nothing was sent";
  }

  /**
   * Waits for a reply up to the node's timeout; a late command is cancelled, so it is never sent if
   * it has not been yet, and its reply is dropped if it has.
   */
  private <T> T await(RedisFuture<T> reply) {
    return await(reply, deadline());
  }

  /** Lettuce's event loops: a timeout is blamed on the server once they could read its reply. */
  @Override
  protected ClientStalls.IoCheck ioCheck() {
    return ioThreads;
  }

  /**
   * Lettuce's own command timeout fires at twice the bound of chash's deadline ({@link
   * RedisClients#options}), so when it fires the deadline's own check could not run for a whole
   * bound: the client stalled, whatever the server did. Other failures are returned as they are.
   */
  @Override
  protected Throwable translate(Throwable failure) {
    return failure instanceof RedisCommandTimeoutException
        ? ClientStalls.stalledFailure(RedisClients.backstop(timeout()).toNanos())
        : failure;
  }

  @Override
  protected String describe(Throwable failure) {
    return RedisClients.describe(failure);
  }

  /** An error reply (a refused login) names its cause: no advice to check the server is up. */
  @Override
  protected boolean answered(Throwable failure) {
    return RedisClients.isErrorReply(failure);
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
