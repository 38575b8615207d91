package io.github.chash.memcached;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.Marker;
import io.github.chash.cache.ValueRefusedException;
import io.github.chash.cache.ValueType;
import io.github.chash.cache.VerbatimKeys;
import io.github.chash.internal.codec.CacheCodecs;
import io.github.chash.internal.codec.CodecException;
import io.github.chash.internal.codec.MarkerBytes;
import io.github.chash.internal.codec.StoredValues;
import io.github.chash.internal.codec.ValueCodec;
import io.github.chash.internal.node.ClientStalls;
import io.github.chash.internal.node.Connecting;
import io.github.chash.internal.node.NodeConnection;
import io.github.chash.internal.node.RemoteNode;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.rubyeye.xmemcached.GetsResponse;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.MemcachedClientStateListener;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.rubyeye.xmemcached.exception.MemcachedException;

/**
 * A {@link CacheNode} on one memcached server, through one XMemcached connection (text protocol).
 *
 * <p>Every command is bounded by the node's timeout; while the server is unreachable commands fail
 * at once (XMemcached reconnects in the background every 100 ms), and failures surface as {@link
 * CacheNodeException}s for the cache layer's failure policy, as on Redis nodes. Values larger than
 * {@code maxValueSize} are refused before they are sent and after they are received (never
 * decoded); a server that refuses an item as too large for its {@code -I} limit is a refusal too;
 * so are stored bytes that are no entry of this library or that the codec refuses. Refusals are
 * {@link ValueRefusedException}s, logged once per reason, and never count against the node.
 *
 * <p>Memcached cannot list its keys, so entries are cleared by generation: every entry's envelope
 * ({@link Envelope}) carries the node-wide generation and its namespace's (a cache's name and
 * colon) at write time, every read fetches both counters in the same multi-get as the value, and an
 * entry whose generations are not the current ones is a miss. {@link #clear()} replaces the
 * node-wide counter, {@link #clear(String)} a namespace's, both with a random value: nothing is
 * deleted, the old entries stop being readable at once and leave by their TTL or memcached's LRU. A
 * counter that is missing (a restarted or evicting server) makes its entries misses until a write
 * adds a new one. Writes use counters read less than a second ago: an entry written under a counter
 * replaced in the meantime is never read, so a write can be lost, a read never stale.
 *
 * <p>Conditional calls ({@link CacheNode#conditional()}, the rules between the JVMs of a fleet) use
 * memcached's own check-and-set: {@link #getHeld} is a {@code gets} (the version is the item's CAS
 * unique), "only if nothing is held" an {@code add}, "only if exactly what was seen" a {@code cas},
 * and a conditional delete a {@code cas} to an expiration already past. A lease or tombstone is the
 * payload of an envelope ({@code MarkerBytes}), so clears and deadlines apply to it, and every
 * value read takes it as a miss. Verbatim caches take none: peer clients read their items. A
 * conditional command is sent once: one that timed out is a failure whose outcome is unknown, never
 * sent again. A server without CAS uniques ({@code memcached -C}) turns them off ({@link
 * #conditional()}).
 *
 * <p>TTLs: memcached counts whole seconds, and takes more than 30 days as an absolute Unix time;
 * the node sends {@code ceil(ttl)} seconds up to 30 days, the absolute time beyond, and no expiry
 * for a null TTL, a century or more, or a time past 2038. The envelope also keeps the deadline in
 * milliseconds: a read after it is a miss, and {@link #getEntry} returns the time left from it.
 * Deadlines and absolute times are in the server's clock as this JVM reads it ({@link
 * ServerClock}), never in this JVM's wall clock, so JVMs whose clocks disagree agree on them within
 * about a second. Thread-safe.
 */
final class MemcachedCacheNode extends RemoteNode<MemcachedClient> {
  private static final System.Logger LOG = System.getLogger(MemcachedCacheNode.class.getName());

  /** memcached reads an expiration above this many seconds as an absolute Unix time. */
  static final long RELATIVE_EXPIRATION_LIMIT = 30L * 24 * 3600;

  /**
   * Bytes an item takes on the server beyond its key and value (header, CAS, suffix), rounded up.
   */
  static final int ITEM_OVERHEAD = 96;

  /** How often a lost connection is retried. */
  private static final long HEAL_MILLIS = 100;

  /** How long a write trusts generation counters it read. */
  private static final long GENERATIONS_FRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** Runs the blocking calls a node answers with a future, and the building of its client. */
  private static final Executor BATCHES = BatchThreads.INSTANCE;

  private final InetSocketAddress address;
  private final MemcachedKeys keys;
  private final StoredValues storedValues;
  private final NodeConnection<MemcachedClient> connection;

  /** The peer clients' format of each verbatim cache, by {@link VerbatimKeys#cacheName}. */
  private final Map<String, PeerTranscoder> peerFormats;

  private final Map<String, Generation> generations = new ConcurrentHashMap<>();

  /** The server's clock, which every deadline of this node is in. */
  private final ServerClock clock;

  /** The server's {@code item_size_max}, read once from {@code stats settings}; 0 until then. */
  private volatile long serverItemLimit;

  /** Whether the server keeps CAS uniques: see {@link #conditional()}. */
  private volatile boolean casEnabled = true;

  /** A generation counter's value (0: none) and when it was read. */
  private record Generation(long value, long readNanos) {}

  /** The two counters an entry is written and read under. */
  private record Generations(long global, long namespace) {
    boolean valid() {
      return global != 0 && namespace != 0;
    }
  }

  /** Creates the node and starts connecting; {@link #awaitReady} waits for the connection. */
  MemcachedCacheNode(
      String id,
      InetSocketAddress address,
      String keyPrefix,
      ValueCodec codec,
      Map<String, PeerTranscoder> peerFormats,
      Duration timeout,
      long maxValueSize,
      Clock wallClock) {
    this(
        id,
        address,
        keyPrefix,
        new StoredValues(id, codec, maxValueSize, "memcached", LOG),
        peerFormats,
        timeout,
        wallClock);
  }

  private MemcachedCacheNode(
      String id,
      InetSocketAddress address,
      String keyPrefix,
      StoredValues storedValues,
      Map<String, PeerTranscoder> peerFormats,
      Duration timeout,
      Clock wallClock) {
    super(
        id,
        "memcached://" + address.getHostString() + ":" + address.getPort(),
        timeout,
        new CacheCodecs(storedValues, Map.of()),
        LOG);
    this.peerFormats = Map.copyOf(peerFormats);
    this.address = address;
    this.keys = new MemcachedKeys(keyPrefix);
    this.storedValues = storedValues;
    this.clock = new ServerClock(id, endpoint(), wallClock, LOG);
    // XMemcached heals a lost session itself; a build that failed is tried again a connect
    // timeout later
    this.connection =
        connection(
            "",
            Connecting.timeout(timeout),
            () -> CompletableFuture.supplyAsync(this::build, BATCHES),
            this::shutdownQuietly);
  }

  /** XMemcached's client is built before its session is up: waits for the server too. */
  @Override
  protected boolean ready(MemcachedClient client, long deadlineNanos) throws InterruptedException {
    while (client.getAvailableServers().isEmpty() && System.nanoTime() < deadlineNanos) {
      Thread.sleep(5);
    }
    return !client.getAvailableServers().isEmpty();
  }

  @Override
  public Object get(String key, ValueType type) {
    if (VerbatimKeys.isVerbatim(key)) {
      // a single get throws the refusal, as the envelope path does: the batch's map holds it as a
      // value, which must never reach a caller as one (a key refused before it is sent included)
      Object value = verbatimGetAll(List.of(key), type).get(key);
      if (value instanceof ValueRefusedException refused) {
        throw refused;
      }
      return value;
    }
    String dataKey = keys.dataKey(key);
    Map<String, byte[]> got = multiGet(List.of(key), Set.of(dataKey), "get");
    return read(got.get(dataKey), key, generationsOf(got, key), type, false);
  }

  @Override
  public StoredEntry getEntry(String key, ValueType type) {
    if (VerbatimKeys.isVerbatim(key)) {
      Object value = get(key, type);
      return value == null ? null : new StoredEntry(value, null); // memcached tells no ttl
    }
    String dataKey = keys.dataKey(key);
    Map<String, byte[]> got = multiGet(List.of(key), Set.of(dataKey), "get");
    return (StoredEntry) read(got.get(dataKey), key, generationsOf(got, key), type, true);
  }

  @Override
  public void put(String key, Object value, Duration ttl) {
    if (VerbatimKeys.isVerbatim(key)) {
      PeerTranscoder.Item item = verbatimItem(key, value);
      ClientStalls.Deadline deadline = deadline();
      verbatimStore(key, item, ttl, deadline);
      return;
    }
    byte[] payload = payload(key, value);
    ClientStalls.Deadline deadline = deadline();
    Map<String, Generations> gens = writeGenerations(List.of(key), "put", deadline);
    store(key, payload, ttl, gens.get(MemcachedKeys.namespace(key)), deadline);
  }

  /** One multi-get for the values and their generation counters, on the batch executor. */
  @Override
  public CompletableFuture<Map<String, Object>> getAll(List<String> routingKeys, ValueType type) {
    if (!routingKeys.isEmpty() && VerbatimKeys.isVerbatim(routingKeys.get(0))) {
      // one cache's keys: all verbatim
      return bounded(
          CompletableFuture.supplyAsync(() -> verbatimGetAll(routingKeys, type), BATCHES), "get");
    }
    Map<String, String> dataKeys = new LinkedHashMap<>();
    for (String key : routingKeys) {
      dataKeys.put(key, keys.dataKey(key));
    }
    return bounded(
        CompletableFuture.supplyAsync(
            () -> {
              Map<String, byte[]> got =
                  multiGet(routingKeys, new LinkedHashSet<>(dataKeys.values()), "get");
              Map<String, Object> found = new HashMap<>();
              for (String key : routingKeys) {
                try {
                  Object value =
                      read(got.get(dataKeys.get(key)), key, generationsOf(got, key), type, false);
                  if (value != null) {
                    found.put(key, value);
                  }
                } catch (ValueRefusedException e) {
                  found.put(key, e);
                }
              }
              return found;
            },
            BATCHES),
        "get");
  }

  /**
   * The generation counters, then one {@code set} a key in turn, all within one timeout (XMemcached
   * has no pipelined set with replies).
   */
  @Override
  public CompletableFuture<Map<String, ValueRefusedException>> putAll(
      Map<String, Object> values, Duration ttl) {
    if (!values.isEmpty() && VerbatimKeys.isVerbatim(values.keySet().iterator().next())) {
      return verbatimPutAll(values, ttl);
    }
    Map<String, ValueRefusedException> refusals = new HashMap<>();
    Map<String, byte[]> payloads = new LinkedHashMap<>();
    values.forEach(
        (key, value) -> {
          try {
            payloads.put(key, payload(key, value));
          } catch (ValueRefusedException e) {
            refusals.put(key, e);
          }
        });
    if (payloads.isEmpty()) {
      return CompletableFuture.completedFuture(refusals);
    }
    ClientStalls.Deadline deadline = deadline();
    return bounded(
        CompletableFuture.supplyAsync(
            () -> {
              Map<String, Generations> gens =
                  writeGenerations(new ArrayList<>(payloads.keySet()), "put", deadline);
              payloads.forEach(
                  (key, payload) -> {
                    try {
                      store(key, payload, ttl, gens.get(MemcachedKeys.namespace(key)), deadline);
                    } catch (ValueRefusedException e) {
                      refusals.put(key, e);
                    }
                  });
              return refusals;
            },
            BATCHES),
        "put");
  }

  @Override
  public void evict(String key) {
    // outside the try: a verbatim key memcached cannot hold is refused, never a failure of the node
    String serverKey = VerbatimKeys.isVerbatim(key) ? verbatimKey(key) : keys.dataKey(key);
    try {
      MemcachedClient client = client();
      once(ms -> client.delete(serverKey, ms));
    } catch (Exception e) {
      throw failure("evict", e);
    }
  }

  /** Replaces the node-wide generation counter: every entry of this library becomes a miss. */
  @Override
  public void clear() {
    replaceGeneration(keys.globalGenerationKey(), "clear");
  }

  /**
   * Replaces the counter of the prefix's namespace (a cache's {@code name:}): that cache's entries
   * become misses. A prefix without a colon is no namespace, so it clears everything (more than
   * asked, never less), as a longer one clears its whole namespace.
   */
  @Override
  public void clear(String routingKeyPrefix) {
    int colon = routingKeyPrefix.indexOf(':');
    if (colon < 0) {
      clear();
      return;
    }
    replaceGeneration(
        keys.namespaceGenerationKey(routingKeyPrefix.substring(0, colon + 1)), "clear");
  }

  /** memcached's {@code version}. */
  @Override
  public void ping() {
    Map<InetSocketAddress, String> versions;
    try {
      MemcachedClient client = client();
      versions = once(client::getVersions);
    } catch (Exception e) {
      throw failure("ping", e);
    }
    if (versions == null || versions.isEmpty()) {
      throw new CacheNodeException(id(), "ping failed on " + endpoint() + ": not connected", null);
    }
  }

  /** -1: memcached cannot count one application's keys. */
  @Override
  public long estimatedSize() {
    return -1;
  }

  @Override
  protected void shutdown(List<MemcachedClient> open) {
    open.forEach(this::shutdownQuietly);
  }

  private void shutdownQuietly(MemcachedClient client) {
    try {
      client.shutdown();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, () -> "node \"" + id() + "\": error while closing: " + e);
    }
  }

  // Conditional calls (the rules between JVMs, see CacheNode#conditional), with memcached's own
  // check-and-set: gets reads an item with its CAS unique, add stores only where no item is, cas
  // only over the item of that unique. Markers are payloads of the envelope, so generation clears
  // and deadlines apply to them as to values, and every read of a value takes them as misses.

  /** {@link Held#version()} on a memcached node: the CAS unique of the item that was read. */
  record CasUnique(long value) {}

  /**
   * The expiration of a conditional delete: an absolute time in January 1970, which memcached takes
   * as already past, so a {@code cas} with it deletes the item only if its unique is unchanged. The
   * text protocol's {@code delete} takes no CAS (XMemcached's {@code delete(key, cas, timeout)}
   * sends a plain delete on it).
   */
  static final int EXPIRED = (int) RELATIVE_EXPIRATION_LIMIT + 1;

  /** What a conditional delete stores: an envelope of no routing key, so it reads as nothing. */
  private static final byte[] GONE = new Envelope(0, 0, 1, new byte[0], new byte[0]).encode();

  /**
   * True unless the server keeps no CAS uniques ({@code memcached -C}), where every {@code cas}
   * answers {@code EXISTS}: no fill over a lease would land, so its keys keep the rules of one JVM.
   * Told from its settings, read with its item limit before the first write, or from a {@code gets}
   * that returns a unique of 0.
   */
  @Override
  public boolean conditional() {
    return casEnabled;
  }

  /** The server keeps no CAS uniques: said once, and the conditional calls are off. */
  private void casDisabled() {
    if (casEnabled) {
      casEnabled = false;
      LOG.log(
          Level.WARNING,
          () ->
              "node \""
                  + id()
                  + "\": "
                  + endpoint()
                  + " keeps no CAS uniques (memcached -C): its keys keep the rules of one JVM"
                  + " (no leases, tombstones or conditional moves between JVMs)");
    }
  }

  /** One {@code gets} of the item and its generation counters, on the batch executor. */
  @Override
  public CompletableFuture<Held> getHeld(String key, ValueType type) {
    requireEnvelope(key);
    ClientStalls.Deadline deadline = deadline();
    return bounded(
        CompletableFuture.supplyAsync(
            () -> {
              Seen seen = gets(key, "get", deadline);
              Live live = live(seen.stored(), key, seen.gens());
              if (live == null) {
                return Held.NOTHING;
              }
              CasUnique version = new CasUnique(seen.cas());
              return live.marker() != null
                  ? new Held(null, live.marker(), live.ttl(), version)
                  : new Held(
                      storedValues.decode(live.envelope().payload(), type),
                      null,
                      live.ttl(),
                      version);
            },
            BATCHES),
        "get");
  }

  /** A {@code cas} with the unique that was read; over nothing, as {@link #lease} but no marker. */
  @Override
  public boolean putIf(String key, Held expected, Object value, Duration ttl) {
    requireEnvelope(key);
    if (expected.version() instanceof CasUnique seen) {
      return storeIf(
          key, value, ttl, "putIf", (client, item, deadline) -> cas(client, item, seen, deadline));
    }
    if (expected.holds()) {
      return false; // another node's version: no item of this node
    }
    return storeIf(
        key,
        value,
        ttl,
        "putIf",
        (client, item, deadline) ->
            storeOverNothing(client, key, item, m -> false, "putIf", deadline));
  }

  /** {@code gets}, then a {@code cas} with its unique if the item holds that lease. */
  @Override
  public boolean putIfLeased(String key, Marker lease, Object value, Duration ttl) {
    requireEnvelope(key);
    return storeIf(
        key,
        value,
        ttl,
        "putIf",
        (client, item, deadline) -> {
          CasUnique held = holding(key, lease, "putIf", deadline);
          return held != null && cas(client, item, held, deadline);
        });
  }

  /** A conditional delete ({@link #EXPIRED}) with the unique that was read. */
  @Override
  public boolean deleteIf(String key, Held expected) {
    requireEnvelope(key);
    if (!(expected.version() instanceof CasUnique seen)) {
      return false; // nothing was held: nothing to delete
    }
    return deleteIf(key, seen, "deleteIf", deadline());
  }

  /** {@code gets}, then a conditional delete with its unique if the item holds that lease. */
  @Override
  public boolean deleteIfLeased(String key, Marker lease) {
    requireEnvelope(key);
    ClientStalls.Deadline deadline = deadline();
    CasUnique held = holding(key, lease, "deleteIf", deadline);
    return held != null && deleteIf(key, held, "deleteIf", deadline);
  }

  /** An {@code add}; where an item is, a {@code cas} over it if it holds nothing or a tombstone. */
  @Override
  public boolean lease(String key, Marker lease, Duration ttl) {
    requireEnvelope(key);
    return storeIf(
        key,
        lease,
        ttl,
        "lease",
        (client, item, deadline) ->
            storeOverNothing(client, key, item, held -> !held.isLease(), "lease", deadline));
  }

  /** A conditional store's command, given the item to store. */
  @FunctionalInterface
  private interface StoreIf {
    boolean send(MemcachedClient client, Item item, ClientStalls.Deadline deadline)
        throws Exception;
  }

  /** Stores a value or marker with {@code command}, all within one deadline. */
  private boolean storeIf(
      String key, Object value, Duration ttl, String operation, StoreIf command) {
    byte[] payload = payload(key, value);
    ClientStalls.Deadline deadline = deadline();
    Generations gens =
        writeGenerations(List.of(key), operation, deadline).get(MemcachedKeys.namespace(key));
    return storeWith(
        key,
        payload,
        ttl,
        gens,
        deadline,
        operation,
        (client, item) -> command.send(client, item, deadline));
  }

  /**
   * Stores the item where nothing is held for this library, or a marker {@code over} accepts: an
   * {@code add}; if an item is there (it may hold nothing for this library: another key's, cleared,
   * past its deadline), a {@code gets} and a {@code cas} over it when it may be replaced. A foreign
   * item counts as held.
   */
  private boolean storeOverNothing(
      MemcachedClient client,
      String key,
      Item item,
      java.util.function.Predicate<Marker> over,
      String operation,
      ClientStalls.Deadline deadline)
      throws Exception {
    if (sendOnce(
        deadline,
        ms ->
            client.add(
                item.dataKey(), item.expiration(), item.bytes(), RawTranscoder.INSTANCE, ms))) {
      return true;
    }
    Seen seen = gets(key, operation, deadline);
    if (seen.stored() == null) {
      return false; // gone since the add: something changed, so the caller's view is stale
    }
    Live live;
    try {
      live = live(seen.stored(), key, seen.gens());
    } catch (ValueRefusedException foreign) {
      return false;
    }
    if (live != null && (live.marker() == null || !over.test(live.marker()))) {
      return false;
    }
    return cas(client, item, new CasUnique(seen.cas()), deadline);
  }

  /** {@return the unique of the key's item when it holds exactly that marker now, else null} */
  private CasUnique holding(
      String key, Marker marker, String operation, ClientStalls.Deadline deadline) {
    Seen seen = gets(key, operation, deadline);
    Live live;
    try {
      live = live(seen.stored(), key, seen.gens());
    } catch (ValueRefusedException foreign) {
      return null;
    }
    return live != null && marker.equals(live.marker()) ? new CasUnique(seen.cas()) : null;
  }

  private static boolean cas(
      MemcachedClient client, Item item, CasUnique seen, ClientStalls.Deadline deadline)
      throws Exception {
    return sendOnce(
        deadline,
        ms ->
            client.cas(
                item.dataKey(),
                item.expiration(),
                item.bytes(),
                RawTranscoder.INSTANCE,
                ms,
                seen.value()));
  }

  /** Deletes the key's item only if its unique is still {@code seen} (see {@link #EXPIRED}). */
  private boolean deleteIf(
      String key, CasUnique seen, String operation, ClientStalls.Deadline deadline) {
    String dataKey = keys.dataKey(key);
    try {
      MemcachedClient client = client();
      return sendOnce(
          deadline,
          ms -> client.cas(dataKey, EXPIRED, GONE, RawTranscoder.INSTANCE, ms, seen.value()));
    } catch (Exception e) {
      throw failure(operation, e);
    }
  }

  /** What a {@code gets} found: the item's bytes (null: none), its unique, the generations. */
  private record Seen(byte[] stored, long cas, Generations gens) {}

  /** One {@code gets} of the key's item and its generation counters, which are remembered. */
  private Seen gets(String routingKey, String operation, ClientStalls.Deadline deadline) {
    String dataKey = keys.dataKey(routingKey);
    String namespaceKey = keys.namespaceGenerationKey(MemcachedKeys.namespace(routingKey));
    List<String> all = List.of(dataKey, keys.globalGenerationKey(), namespaceKey);
    Map<String, GetsResponse<byte[]>> got;
    try {
      MemcachedClient client = client();
      serverMillis(client, deadline); // the clock its deadlines are judged in
      got = within(deadline, ms -> client.gets(all, ms, RawTranscoder.INSTANCE));
    } catch (Exception e) {
      throw failure(operation, e);
    }
    Map<String, byte[]> values = new HashMap<>();
    if (got != null) {
      got.forEach((k, reply) -> values.put(k, reply.getValue()));
    }
    remember(values, Set.of(namespaceKey));
    GetsResponse<byte[]> item = got == null ? null : got.get(dataKey);
    if (item != null && item.getCas() == 0) {
      casDisabled();
    }
    return new Seen(
        item == null ? null : item.getValue(),
        item == null ? 0 : item.getCas(),
        generationsOf(values, routingKey));
  }

  /** A verbatim cache's values are read by peer clients: they never take markers. */
  private static void requireEnvelope(String routingKey) {
    if (VerbatimKeys.isVerbatim(routingKey)) {
      throw new IllegalArgumentException(
          "cache \""
              + VerbatimKeys.cacheName(routingKey)
              + "\" is verbatim: its keys take no conditional calls");
    }
  }

  private static void requireNoMarker(String routingKey, Object value) {
    if (value instanceof Marker) {
      requireEnvelope(routingKey);
    }
  }

  // Verbatim caches: the key as given, the peer clients' item format, no envelope or generations
  // (a peer client could not read them); their entries are never cleared in bulk.

  /**
   * The server key of a verbatim routing key, refused when memcached could not take it or it lies
   * under the node's key prefix ({@link VerbatimKeys#prefixProblem}).
   */
  private String verbatimKey(String routingKey) {
    String key = VerbatimKeys.key(routingKey);
    if (key.isEmpty() || key.length() > MemcachedKeys.MAX_KEY_BYTES || !MemcachedKeys.isSafe(key)) {
      throw storedValues.refused(
          "verbatim key",
          "a verbatim key of "
              + key.length()
              + " chars is no memcached key (1 to 250 printable ASCII characters, no space);"
              + " not sent",
          null);
    }
    String problem = VerbatimKeys.prefixProblem(key, keys.prefix());
    if (problem != null) {
      throw storedValues.refused("verbatim key", problem, null);
    }
    return key;
  }

  private PeerTranscoder format(String routingKey) {
    PeerTranscoder format = peerFormats.get(VerbatimKeys.cacheName(routingKey));
    if (format == null) {
      throw new IllegalStateException(
          "cache \"" + VerbatimKeys.cacheName(routingKey) + "\" is no verbatim cache of " + this);
    }
    return format;
  }

  private PeerTranscoder.Item verbatimItem(String routingKey, Object value) {
    requireNoMarker(routingKey, value);
    PeerTranscoder.Item item;
    try {
      item = format(routingKey).encode(value);
    } catch (CodecException e) {
      throw storedValues.notStored(e);
    }
    storedValues.checkStoredSize(item.data().length);
    return item;
  }

  private void verbatimStore(
      String routingKey, PeerTranscoder.Item item, Duration ttl, ClientStalls.Deadline deadline) {
    String key = verbatimKey(routingKey);
    try {
      MemcachedClient client = client();
      long limit = serverItemLimit(client, deadline);
      if (item.data().length + key.length() + ITEM_OVERHEAD > limit) {
        throw storedValues.refused(
            "too large for the server",
            "value of "
                + item.data().length
                + " bytes not stored: larger than the item size limit of "
                + endpoint(),
            null);
      }
      int expiration = expiration(ttl, serverMillis(client, deadline));
      within(deadline, ms -> client.set(key, expiration, item, ItemTranscoder.INSTANCE, ms));
    } catch (ValueRefusedException e) {
      throw e;
    } catch (Exception e) {
      throw failure("put", e);
    }
  }

  private Map<String, Object> verbatimGetAll(List<String> routingKeys, ValueType type) {
    Map<String, String> serverKeys = new LinkedHashMap<>();
    Map<String, Object> found = new HashMap<>();
    for (String routingKey : routingKeys) {
      try {
        serverKeys.put(routingKey, verbatimKey(routingKey));
      } catch (ValueRefusedException e) {
        found.put(routingKey, e);
      }
    }
    if (serverKeys.isEmpty()) {
      return found;
    }
    Map<String, PeerTranscoder.Item> got;
    try {
      MemcachedClient client = client();
      List<String> wanted = new ArrayList<>(new LinkedHashSet<>(serverKeys.values()));
      got = once(ms -> client.get(wanted, ms, ItemTranscoder.INSTANCE));
    } catch (Exception e) {
      throw failure("get", e);
    }
    if (got == null) {
      return found;
    }
    serverKeys.forEach(
        (routingKey, key) -> {
          PeerTranscoder.Item item = got.get(key);
          if (item == null) {
            return;
          }
          try {
            found.put(routingKey, verbatimValue(routingKey, item, type));
          } catch (ValueRefusedException e) {
            found.put(routingKey, e);
          }
        });
    return found;
  }

  private Object verbatimValue(String routingKey, PeerTranscoder.Item item, ValueType type) {
    storedValues.checkStoredSize(item.data().length);
    try {
      return storedValues.ofType(format(routingKey).decode(item, type.type()), type);
    } catch (CodecException e) {
      throw storedValues.unreadable(e);
    }
  }

  private CompletableFuture<Map<String, ValueRefusedException>> verbatimPutAll(
      Map<String, Object> values, Duration ttl) {
    Map<String, ValueRefusedException> refusals = new HashMap<>();
    Map<String, PeerTranscoder.Item> items = new LinkedHashMap<>();
    values.forEach(
        (key, value) -> {
          try {
            items.put(key, verbatimItem(key, value));
          } catch (ValueRefusedException e) {
            refusals.put(key, e);
          }
        });
    if (items.isEmpty()) {
      return CompletableFuture.completedFuture(refusals);
    }
    ClientStalls.Deadline deadline = deadline();
    return bounded(
        CompletableFuture.supplyAsync(
            () -> {
              items.forEach(
                  (key, item) -> {
                    try {
                      verbatimStore(key, item, ttl, deadline);
                    } catch (ValueRefusedException e) {
                      refusals.put(key, e);
                    }
                  });
              return refusals;
            },
            BATCHES),
        "put");
  }

  /** {@code memcached-node[id, memcached://host:port]}. */
  @Override
  public String toString() {
    return "memcached-node[" + id() + ", " + endpoint() + "]";
  }

  /** The memcached expiration of a TTL written at {@code nowMillis}: see the class comment. */
  static int expiration(Duration ttl, long nowMillis) {
    long millis = expiryMillis(ttl);
    if (millis == 0) {
      return 0;
    }
    long seconds = (millis + 999) / 1000;
    if (seconds <= RELATIVE_EXPIRATION_LIMIT) {
      return (int) seconds;
    }
    long absolute = Math.floorDiv(nowMillis, 1000) + seconds;
    return absolute > Integer.MAX_VALUE ? 0 : (int) absolute;
  }

  /** The deadline an envelope keeps, epoch milliseconds; 0 for none. */
  static long deadline(Duration ttl, long nowMillis) {
    long millis = expiryMillis(ttl);
    return millis == 0 ? 0 : nowMillis + millis;
  }

  private void store(
      String key, byte[] payload, Duration ttl, Generations gens, ClientStalls.Deadline deadline) {
    storeWith(
        key,
        payload,
        ttl,
        gens,
        deadline,
        "put",
        (client, item) ->
            within(
                deadline,
                ms ->
                    client.set(
                        item.dataKey(),
                        item.expiration(),
                        item.bytes(),
                        RawTranscoder.INSTANCE,
                        ms)));
  }

  /** An entry's server key, stored bytes and memcached expiration. */
  private record Item(String dataKey, byte[] bytes, int expiration) {}

  /** Sends an item: a {@code set}, or a conditional {@code add} or {@code cas}. */
  @FunctionalInterface
  private interface Store {
    boolean send(MemcachedClient client, Item item) throws Exception;
  }

  /**
   * Wraps the payload in its envelope, refuses it when it is larger than the server's item limit,
   * and sends it with {@code command}; a refusal or failure is mapped as every write's.
   *
   * @return what the command returned: whether it stored the item
   */
  private boolean storeWith(
      String key,
      byte[] payload,
      Duration ttl,
      Generations gens,
      ClientStalls.Deadline deadline,
      String operation,
      Store command) {
    String dataKey = keys.dataKey(key);
    try {
      MemcachedClient client = client();
      long now = serverMillis(client, deadline);
      byte[] stored =
          new Envelope(
                  gens.global(),
                  gens.namespace(),
                  deadline(ttl, now),
                  MemcachedKeys.fullKey(key),
                  payload)
              .encode();
      long limit = serverItemLimit(client, deadline);
      if (stored.length + dataKey.length() + ITEM_OVERHEAD > limit) {
        throw storedValues.refused(
            "too large for the server",
            "value of "
                + payload.length
                + " bytes not stored: with its key and header it is larger than the item size"
                + " limit of "
                + endpoint()
                + " ("
                + limit
                + " bytes, memcached -I)",
            null);
      }
      return command.send(client, new Item(dataKey, stored, expiration(ttl, now)));
    } catch (ValueRefusedException | CacheNodeException e) {
      throw e;
    } catch (Exception e) {
      if (isTooLarge(e)) {
        throw storedValues.refused(
            "too large for the server",
            "value of "
                + payload.length
                + " bytes refused by "
                + endpoint()
                + " as too large for its item size limit (memcached -I, 1 MB by default);"
                + " not stored",
            e);
      }
      throw failure(operation, e);
    }
  }

  /**
   * The server's item size limit: sending a larger item makes memcached answer an error while the
   * client still writes the value, and XMemcached's connection does not recover from that, so no
   * such item is sent. The same read tells whether the server keeps CAS uniques ({@link
   * #conditional()}).
   */
  private long serverItemLimit(MemcachedClient client, ClientStalls.Deadline deadline)
      throws Exception {
    long known = serverItemLimit;
    if (known > 0) {
      return known;
    }
    Map<InetSocketAddress, Map<String, String>> stats =
        within(deadline, ms -> client.getStatsByItem("settings", ms));
    if (stats != null) {
      for (Map<String, String> settings : stats.values()) {
        String value = settings.get("item_size_max");
        if (value != null) {
          known = Long.parseLong(value.trim());
        }
        String cas = settings.get("cas_enabled");
        if (cas != null && cas.trim().equals("no")) {
          casDisabled();
        }
      }
    }
    if (known <= 0) {
      known = 1 << 20; // memcached's default
    }
    serverItemLimit = known;
    return known;
  }

  /** What the server or XMemcached says of an item beyond the server's size limit. */
  private static boolean isTooLarge(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null
          && (message.contains("object too large")
              || message.contains("too large for cache")
              || message.contains("larger than"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * One multi-get of the data keys and the generation counters of the routing keys' namespaces; the
   * counters read are remembered for writes.
   */
  private Map<String, byte[]> multiGet(
      List<String> routingKeys, Set<String> dataKeys, String operation) {
    List<String> all = new ArrayList<>(dataKeys);
    all.add(keys.globalGenerationKey());
    Set<String> namespaceKeys = new LinkedHashSet<>();
    for (String key : routingKeys) {
      namespaceKeys.add(keys.namespaceGenerationKey(MemcachedKeys.namespace(key)));
    }
    all.addAll(namespaceKeys);
    Map<String, byte[]> got;
    try {
      MemcachedClient client = client();
      ClientStalls.Deadline deadline = deadline();
      serverMillis(client, deadline); // the clock its deadlines are judged in
      got = within(deadline, ms -> client.get(all, ms, RawTranscoder.INSTANCE));
    } catch (Exception e) {
      throw failure(operation, e);
    }
    if (got == null) {
      got = Map.of();
    }
    remember(got, namespaceKeys);
    return got;
  }

  /** Remembers the generation counters a read fetched, for the writes of the next second. */
  private void remember(Map<String, byte[]> got, Set<String> namespaceKeys) {
    long now = System.nanoTime();
    generations.put(
        keys.globalGenerationKey(),
        new Generation(Envelope.generationOf(got.get(keys.globalGenerationKey())), now));
    for (String key : namespaceKeys) {
      generations.put(key, new Generation(Envelope.generationOf(got.get(key)), now));
    }
  }

  private Generations generationsOf(Map<String, byte[]> got, String routingKey) {
    return new Generations(
        Envelope.generationOf(got.get(keys.globalGenerationKey())),
        Envelope.generationOf(
            got.get(keys.namespaceGenerationKey(MemcachedKeys.namespace(routingKey)))));
  }

  /**
   * The counters writes of these keys go under, by namespace: those read less than a second ago,
   * else read now; a missing one is added (a new random value), or read again if another client
   * added it first.
   */
  private Map<String, Generations> writeGenerations(
      List<String> routingKeys, String operation, ClientStalls.Deadline deadline) {
    Set<String> namespaces = new LinkedHashSet<>();
    for (String key : routingKeys) {
      namespaces.add(MemcachedKeys.namespace(key));
    }
    List<String> counterKeys = new ArrayList<>();
    counterKeys.add(keys.globalGenerationKey());
    for (String namespace : namespaces) {
      counterKeys.add(keys.namespaceGenerationKey(namespace));
    }
    Map<String, Long> values = new HashMap<>();
    List<String> stale = new ArrayList<>();
    long now = System.nanoTime();
    for (String key : counterKeys) {
      Generation g = generations.get(key);
      if (g != null && g.value() != 0 && now - g.readNanos() < GENERATIONS_FRESH_NANOS) {
        values.put(key, g.value());
      } else {
        stale.add(key);
      }
    }
    if (!stale.isEmpty()) {
      try {
        MemcachedClient client = client();
        Map<String, byte[]> got =
            within(deadline, ms -> client.get(stale, ms, RawTranscoder.INSTANCE));
        for (String key : stale) {
          long value = Envelope.generationOf(got == null ? null : got.get(key));
          if (value == 0) {
            long fresh = newGeneration();
            if (within(
                deadline,
                ms -> client.add(key, 0, Envelope.generation(fresh), RawTranscoder.INSTANCE, ms))) {
              value = fresh;
            } else {
              value =
                  Envelope.generationOf(
                      within(deadline, ms -> client.get(key, ms, RawTranscoder.INSTANCE)));
            }
          }
          if (value == 0) {
            // a foreign value where a counter belongs: replace it, its entries are misses anyway
            long replaced = newGeneration();
            within(
                deadline,
                ms ->
                    client.set(key, 0, Envelope.generation(replaced), RawTranscoder.INSTANCE, ms));
            value = replaced;
          }
          generations.put(key, new Generation(value, System.nanoTime()));
          values.put(key, value);
        }
      } catch (Exception e) {
        throw failure(operation, e);
      }
    }
    long global = values.get(keys.globalGenerationKey());
    Map<String, Generations> byNamespace = new HashMap<>();
    for (String namespace : namespaces) {
      byNamespace.put(
          namespace, new Generations(global, values.get(keys.namespaceGenerationKey(namespace))));
    }
    return byNamespace;
  }

  /** One XMemcached command, sent with the milliseconds it may wait for its reply. */
  @FunctionalInterface
  private interface Command<T> {
    T send(long timeoutMillis) throws Exception;
  }

  /**
   * Sends a command within a call's deadline (one timeout of the client's awake time from the
   * call's start, however many commands it sends, see {@link ClientStalls}): a command that timed
   * out while this JVM stalled is sent again (every command sent this way is idempotent: gets,
   * sets, deletes, an {@code add} read back on failure; the conditional ones go through {@link
   * #sendOnce}) until the deadline passes.
   */
  private static <T> T within(ClientStalls.Deadline deadline, Command<T> command) throws Exception {
    while (true) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline.remainingNanos());
      TimeoutException expired = left > 0 ? null : deadline.expired();
      if (expired != null) {
        throw expired;
      }
      try {
        return command.send(Math.max(1, left));
      } catch (TimeoutException e) {
        if (deadline.expired() != null) {
          throw e;
        }
      }
    }
  }

  /**
   * Sends a conditional command ({@code add}, {@code cas}) once within a call's deadline: unlike
   * {@link #within}, one that timed out is never sent again. The first may have applied with its
   * reply late (this JVM stalled, or the server was slow); a second would then find that change and
   * answer "not stored" (an {@code add}; a {@code cas}, whose unique changed) or "not found" (a
   * conditional delete of an item already gone): a write that landed, a lease that is held, would
   * be reported as not done, and the lease would block the key's fills for its time to live. A
   * timeout is a failure instead, whose outcome is unknown; the cache layer marks the key so.
   */
  private static <T> T sendOnce(ClientStalls.Deadline deadline, Command<T> command)
      throws Exception {
    long left = TimeUnit.NANOSECONDS.toMillis(deadline.remainingNanos());
    TimeoutException expired = left > 0 ? null : deadline.expired();
    if (expired != null) {
      throw expired;
    }
    return command.send(Math.max(1, left));
  }

  /** {@link #within} a fresh deadline: a call of one command. */
  private <T> T once(Command<T> command) throws Exception {
    return within(deadline(), command);
  }

  private void replaceGeneration(String counterKey, String operation) {
    long value = newGeneration();
    try {
      MemcachedClient client = client();
      once(ms -> client.set(counterKey, 0, Envelope.generation(value), RawTranscoder.INSTANCE, ms));
    } catch (Exception e) {
      generations.clear();
      throw failure(operation, e);
    }
    generations.clear();
    LOG.log(Level.DEBUG, () -> "node \"" + id() + "\": replaced generation " + counterKey);
  }

  private static long newGeneration() {
    long value;
    do {
      value = ThreadLocalRandom.current().nextLong();
    } while (value == 0);
    return value;
  }

  /**
   * A stored entry read back: null for a miss (absent, another key's, of a replaced generation,
   * past its deadline, a {@link Marker}), the value, or with {@code entry} a {@link StoredEntry}; a
   * refusal when the bytes are too large, no entry of this library, or refused by the codec.
   */
  private Object read(
      byte[] stored, String routingKey, Generations gens, ValueType type, boolean entry) {
    Live live = live(stored, routingKey, gens);
    if (live == null || live.marker() != null) {
      return null;
    }
    Object value = storedValues.decode(live.envelope().payload(), type);
    return entry ? new StoredEntry(value, live.ttl()) : value;
  }

  /**
   * What an entry holds for this library now: its envelope, its marker if it holds one, and the
   * time it has left (null: no expiry).
   */
  private record Live(Envelope envelope, Marker marker, Duration ttl) {}

  /**
   * The entry that stored bytes hold for this routing key now, or null when they hold none for it
   * (absent, another key's, of a replaced generation, past its deadline).
   *
   * @throws ValueRefusedException when the bytes are too large or no entry of this library
   */
  private Live live(byte[] stored, String routingKey, Generations gens) {
    if (stored == null) {
      return null;
    }
    int payloadLength = Envelope.payloadLength(stored);
    storedValues.checkStoredSize(payloadLength >= 0 ? payloadLength : stored.length);
    Envelope envelope = Envelope.decode(stored);
    if (envelope == null) {
      throw storedValues.refused(
          "not an entry",
          "stored value of "
              + stored.length
              + " bytes is not an entry this library wrote; read as a miss",
          null);
    }
    if (!envelope.isOf(MemcachedKeys.fullKey(routingKey))) {
      return null; // another routing key's entry under the same hashed key
    }
    if (!gens.valid()
        || envelope.globalGeneration() != gens.global()
        || envelope.namespaceGeneration() != gens.namespace()) {
      return null; // cleared since it was written
    }
    Duration ttl = null;
    if (envelope.deadlineMillis() != 0) {
      // in the server's clock, read by the get that fetched these bytes
      long left = envelope.deadlineMillis() - clock.millis();
      if (left <= 0) {
        return null;
      }
      ttl = Duration.ofMillis(left);
    }
    // a marker's bytes start with a magic no codec starts a value with (MarkerBytes)
    return new Live(envelope, MarkerBytes.decode(envelope.payload()), ttl);
  }

  /**
   * A batch's own deadline, on its batch thread, fails it first with the precise cause; this one, 5
   * ms later, bounds a batch that never got to run.
   */
  @Override
  protected ClientStalls.Deadline boundDeadline() {
    return ClientStalls.deadline(timeout().plusMillis(5));
  }

  /**
   * Now in the server's clock ({@link ServerClock}), which every deadline of this node is written
   * and judged in: read first, within the call's deadline, when this connection has not read it
   * yet; read again in the background once a minute.
   */
  private long serverMillis(MemcachedClient client, ClientStalls.Deadline deadline)
      throws Exception {
    if (clock.mustRead()) {
      readClock(client, deadline);
    } else if (clock.claimRefresh()) {
      BATCHES.execute(
          () -> {
            try {
              readClock(client, deadline());
            } catch (Exception e) {
              LOG.log(Level.DEBUG, () -> "node \"" + id() + "\": clock not read again: " + e);
            }
          });
    }
    return clock.millis();
  }

  private void readClock(MemcachedClient client, ClientStalls.Deadline deadline) throws Exception {
    long[] sent = new long[1];
    Map<InetSocketAddress, Map<String, String>> stats =
        within(
            deadline,
            ms -> {
              sent[0] = System.nanoTime();
              return client.getStats(ms);
            });
    long received = System.nanoTime();
    if (stats == null || stats.isEmpty()) {
      throw new MemcachedException("no stats from " + endpoint());
    }
    clock.read(stats, sent[0], received);
  }

  /** A reconnected session may be to another server process: its clock is read again. */
  private final class Reconnects implements MemcachedClientStateListener {
    @Override
    public void onConnected(MemcachedClient client, InetSocketAddress server) {
      clock.connected();
    }

    @Override
    public void onStarted(MemcachedClient client) {}

    @Override
    public void onShutDown(MemcachedClient client) {}

    @Override
    public void onDisconnected(MemcachedClient client, InetSocketAddress server) {}

    @Override
    public void onException(MemcachedClient client, Throwable e) {}
  }

  /** The client, or why there is none: closed, or not built yet (a call never waits for it). */
  private MemcachedClient client() {
    return connection.get(Duration.ZERO);
  }

  private MemcachedClient build() {
    InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
    XMemcachedClientBuilder builder = new XMemcachedClientBuilder(List.of(resolved));
    builder.setName("chash-" + id());
    builder.setConnectionPoolSize(1);
    builder.setSelectorPoolSize(1);
    builder.setConnectTimeout(Connecting.timeout(timeout()).toMillis());
    builder.setOpTimeout(Math.max(1, timeout().toMillis()));
    builder.setEnableHealSession(true);
    builder.setHealSessionInterval(HEAL_MILLIS);
    // failure mode would queue commands for a dead server; without it they fail at once
    builder.setFailureMode(false);
    builder.setTranscoder(RawTranscoder.INSTANCE);
    builder.setSanitizeKeys(false);
    builder.addStateListener(new Reconnects());
    try {
      return builder.build(); // one built after the node closed is shut down when it is up
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }
}
