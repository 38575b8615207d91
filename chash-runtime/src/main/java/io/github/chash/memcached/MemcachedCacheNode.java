package io.github.chash.memcached;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.ValueRefusedException;
import io.github.chash.cache.ValueType;
import io.github.chash.cache.VerbatimKeys;
import io.github.chash.internal.codec.CodecException;
import io.github.chash.internal.codec.StoredValues;
import io.github.chash.internal.codec.ValueCodec;
import io.github.chash.internal.node.ClientStalls;
import io.github.chash.internal.node.Connecting;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import net.rubyeye.xmemcached.MemcachedClient;
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
 * <p>TTLs: memcached counts whole seconds, and takes more than 30 days as an absolute Unix time;
 * the node sends {@code ceil(ttl)} seconds up to 30 days, the absolute time beyond, and no expiry
 * for a null TTL, a century or more, or a time past 2038. The envelope also keeps the deadline in
 * milliseconds: a read after it is a miss, and {@link #getEntry} returns the time left from it.
 * Thread-safe.
 */
final class MemcachedCacheNode implements CacheNode {
  private static final System.Logger LOG = System.getLogger(MemcachedCacheNode.class.getName());

  /** A TTL this long (a century, Caffeine's cap too) is written as no expiry. */
  private static final long NO_EXPIRY_MILLIS = Duration.ofDays(36_500).toMillis();

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

  private static final AtomicInteger THREADS = new AtomicInteger();

  /** Runs the blocking multi-gets and batches of {@link #getAll} and {@link #putAll}. */
  private static final ExecutorService BATCHES =
      Executors.newCachedThreadPool(
          task -> {
            Thread t = new Thread(task, "chash-memcached-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
          });

  private final String id;
  private final InetSocketAddress address;
  private final String endpoint;
  private final MemcachedKeys keys;
  private final Duration timeout;
  private final long timeoutMillis;
  private final long readyDeadlineNanos;
  private final StoredValues storedValues;

  /** The peer clients' format of each verbatim cache, by cache name ({@link VerbatimItems}). */
  private final Map<String, PeerTranscoder> peerFormats;

  private final Map<String, Generation> generations = new ConcurrentHashMap<>();

  /** The server's {@code item_size_max}, read once from {@code stats settings}; 0 until then. */
  private volatile long serverItemLimit;

  private CompletableFuture<MemcachedClient> building;
  private long lastBuildAttempt;
  private volatile boolean closed;

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
      long maxValueSize) {
    this.id = id;
    this.peerFormats = Map.copyOf(peerFormats);
    this.address = address;
    this.endpoint = "memcached://" + address.getHostString() + ":" + address.getPort();
    this.keys = new MemcachedKeys(keyPrefix);
    this.timeout = timeout;
    this.timeoutMillis = Math.max(1, timeout.toMillis());
    this.storedValues = new StoredValues(id, codec, maxValueSize, "memcached", LOG);
    this.readyDeadlineNanos = System.nanoTime() + Connecting.timeout(timeout).toNanos();
    buildIfIdle();
  }

  @Override
  public String id() {
    return id;
  }

  /**
   * Waits until the connection is up, at most one connect timeout from the node's creation; a
   * server that is down or frozen does not fail startup, its calls fail until it is back.
   */
  @Override
  public void awaitReady() {
    CompletableFuture<MemcachedClient> pending;
    synchronized (this) {
      pending = building;
    }
    try {
      MemcachedClient client =
          pending.get(Math.max(0, readyDeadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
      while (client.getAvailableServers().isEmpty() && System.nanoTime() < readyDeadlineNanos) {
        Thread.sleep(5);
      }
      if (!client.getAvailableServers().isEmpty()) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
      // logged below
    }
    Connecting.logNotReady(LOG, id, endpoint, null, timeout);
  }

  @Override
  public Object get(String key, ValueType type) {
    if (VerbatimKeys.isVerbatim(key)) {
      return verbatimGetAll(List.of(key), type).get(key);
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
      ClientStalls.Deadline deadline = ClientStalls.deadline(timeout);
      verbatimStore(key, item, ttl, deadline);
      return;
    }
    byte[] payload = storedValues.encode(value);
    ClientStalls.Deadline deadline = ClientStalls.deadline(timeout);
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
            payloads.put(key, storedValues.encode(value));
          } catch (ValueRefusedException e) {
            refusals.put(key, e);
          }
        });
    if (payloads.isEmpty()) {
      return CompletableFuture.completedFuture(refusals);
    }
    ClientStalls.Deadline deadline = ClientStalls.deadline(timeout);
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
    try {
      MemcachedClient client = client();
      String serverKey = VerbatimKeys.isVerbatim(key) ? verbatimKey(key) : keys.dataKey(key);
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
      throw new CacheNodeException(id, "ping failed on " + endpoint + ": not connected", null);
    }
  }

  /** -1: memcached cannot count one application's keys. */
  @Override
  public long estimatedSize() {
    return -1;
  }

  @Override
  public void close() {
    CompletableFuture<MemcachedClient> pending;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      pending = building;
    }
    pending.whenComplete(
        (client, failure) -> {
          if (client != null) {
            try {
              client.shutdown();
            } catch (IOException | RuntimeException e) {
              LOG.log(Level.DEBUG, () -> "node \"" + id + "\": error while closing: " + e);
            }
          }
        });
  }

  // Verbatim caches: the key as given, the peer clients' item format, no envelope or generations
  // (a peer client could not read them); their entries are never cleared in bulk.

  /** The server key of a verbatim routing key, refused when memcached could not take it. */
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
                + endpoint,
            null);
      }
      int expiration = expiration(ttl, System.currentTimeMillis());
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
    // a single get throws the refusal, as the envelope path does
    if (routingKeys.size() == 1
        && found.get(routingKeys.get(0)) instanceof ValueRefusedException e) {
      throw e;
    }
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
    ClientStalls.Deadline deadline = ClientStalls.deadline(timeout);
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
    return "memcached-node[" + id + ", " + endpoint + "]";
  }

  /** The memcached expiration of a TTL written at {@code nowMillis}: see the class comment. */
  static int expiration(Duration ttl, long nowMillis) {
    long millis = ttlMillis(ttl);
    if (millis >= NO_EXPIRY_MILLIS) {
      return 0;
    }
    long seconds = Math.max(1, (millis + 999) / 1000);
    if (seconds <= RELATIVE_EXPIRATION_LIMIT) {
      return (int) seconds;
    }
    long absolute = Math.floorDiv(nowMillis, 1000) + seconds;
    return absolute > Integer.MAX_VALUE ? 0 : (int) absolute;
  }

  /** The deadline an envelope keeps, epoch milliseconds; 0 for none. */
  static long deadline(Duration ttl, long nowMillis) {
    long millis = ttlMillis(ttl);
    return millis >= NO_EXPIRY_MILLIS ? 0 : nowMillis + Math.max(1, millis);
  }

  private static long ttlMillis(Duration ttl) {
    if (ttl == null) {
      return Long.MAX_VALUE;
    }
    try {
      return ttl.toMillis();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private void store(
      String key, byte[] payload, Duration ttl, Generations gens, ClientStalls.Deadline deadline) {
    long now = System.currentTimeMillis();
    byte[] stored =
        new Envelope(
                gens.global(),
                gens.namespace(),
                deadline(ttl, now),
                MemcachedKeys.fullKey(key),
                payload)
            .encode();
    String dataKey = keys.dataKey(key);
    try {
      MemcachedClient client = client();
      long limit = serverItemLimit(client, deadline);
      if (stored.length + dataKey.length() + ITEM_OVERHEAD > limit) {
        throw storedValues.refused(
            "too large for the server",
            "value of "
                + payload.length
                + " bytes not stored: with its key and header it is larger than the item size"
                + " limit of "
                + endpoint
                + " ("
                + limit
                + " bytes, memcached -I)",
            null);
      }
      within(
          deadline,
          ms -> client.set(dataKey, expiration(ttl, now), stored, RawTranscoder.INSTANCE, ms));
    } catch (ValueRefusedException e) {
      throw e;
    } catch (Exception e) {
      if (isTooLarge(e)) {
        throw storedValues.refused(
            "too large for the server",
            "value of "
                + payload.length
                + " bytes refused by "
                + endpoint
                + " as too large for its item size limit (memcached -I, 1 MB by default);"
                + " not stored",
            e);
      }
      throw failure("put", e);
    }
  }

  /**
   * The server's item size limit: sending a larger item makes memcached answer an error while the
   * client still writes the value, and XMemcached's connection does not recover from that, so no
   * such item is sent.
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
      got = once(ms -> client.get(all, ms, RawTranscoder.INSTANCE));
    } catch (Exception e) {
      throw failure(operation, e);
    }
    if (got == null) {
      got = Map.of();
    }
    long now = System.nanoTime();
    generations.put(
        keys.globalGenerationKey(),
        new Generation(Envelope.generationOf(got.get(keys.globalGenerationKey())), now));
    for (String key : namespaceKeys) {
      generations.put(key, new Generation(Envelope.generationOf(got.get(key)), now));
    }
    return got;
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
   * out while this JVM stalled is sent again (every command sent is idempotent: gets, sets,
   * deletes, an {@code add} read back on failure) until the deadline passes.
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

  /** {@link #within} a fresh deadline: a call of one command. */
  private <T> T once(Command<T> command) throws Exception {
    return within(ClientStalls.deadline(timeout), command);
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
    LOG.log(Level.DEBUG, () -> "node \"" + id + "\": replaced generation " + counterKey);
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
   * past its deadline), the value, or with {@code entry} a {@link StoredEntry}; a refusal when the
   * bytes are too large, no entry of this library, or refused by the codec.
   */
  private Object read(
      byte[] stored, String routingKey, Generations gens, ValueType type, boolean entry) {
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
    long left = 0;
    if (envelope.deadlineMillis() != 0) {
      left = envelope.deadlineMillis() - System.currentTimeMillis();
      if (left <= 0) {
        return null;
      }
    }
    Object value = storedValues.decode(envelope.payload(), type);
    if (!entry) {
      return value;
    }
    return new StoredEntry(value, envelope.deadlineMillis() == 0 ? null : Duration.ofMillis(left));
  }

  /** A reply bounded by the node's timeout; a late one fails with {@link CacheNodeException}. */
  private <T> CompletableFuture<T> bounded(CompletableFuture<T> reply, String operation) {
    return ClientStalls.deadline(timeout.plusMillis(5))
        .bound(reply)
        .handle(
            (value, failure) -> {
              if (failure == null) {
                return value;
              }
              Throwable cause =
                  failure instanceof CompletionException && failure.getCause() != null
                      ? failure.getCause()
                      : failure;
              if (cause instanceof CacheNodeException c) {
                throw c;
              }
              if (cause instanceof ValueRefusedException r) {
                throw r;
              }
              throw failure(operation, cause);
            });
  }

  /** The client, or why there is none: closed, or not built yet. */
  private MemcachedClient client() {
    if (closed) {
      throw new IllegalStateException("node is closed");
    }
    CompletableFuture<MemcachedClient> pending = buildIfIdle();
    MemcachedClient client = pending.getNow(null);
    if (client == null) {
      throw new IllegalStateException("not connected yet");
    }
    return client;
  }

  /**
   * Starts building the client unless it is built, being built, or failed less than a timeout ago.
   */
  private synchronized CompletableFuture<MemcachedClient> buildIfIdle() {
    long now = System.nanoTime();
    boolean idle =
        building == null
            || (building.isCompletedExceptionally()
                && now - lastBuildAttempt >= Connecting.timeout(timeout).toNanos());
    if (idle && !closed) {
      lastBuildAttempt = now;
      building = CompletableFuture.supplyAsync(this::build, BATCHES);
      building.whenComplete(
          (client, failure) -> {
            if (failure != null) {
              LOG.log(
                  Level.WARNING,
                  () -> "node \"" + id + "\": cannot connect to " + endpoint + ": " + failure);
            }
          });
    }
    return building;
  }

  private MemcachedClient build() {
    InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
    XMemcachedClientBuilder builder = new XMemcachedClientBuilder(List.of(resolved));
    builder.setName("chash-" + id);
    builder.setConnectionPoolSize(1);
    builder.setSelectorPoolSize(1);
    builder.setConnectTimeout(Connecting.timeout(timeout).toMillis());
    builder.setOpTimeout(timeoutMillis);
    builder.setEnableHealSession(true);
    builder.setHealSessionInterval(HEAL_MILLIS);
    // failure mode would queue commands for a dead server; without it they fail at once
    builder.setFailureMode(false);
    builder.setTranscoder(RawTranscoder.INSTANCE);
    builder.setSanitizeKeys(false);
    try {
      MemcachedClient client = builder.build();
      if (closed) {
        client.shutdown();
      }
      return client;
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private CacheNodeException failure(String operation, Throwable e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    String reason =
        ClientStalls.isStall(e)
            ? e.getMessage()
            : e instanceof TimeoutException
                ? "command timed out after " + timeoutMillis + " ms"
                : e instanceof MemcachedException || e.getMessage() != null
                    ? String.valueOf(e.getMessage())
                    : e.toString();
    return new CacheNodeException(id, operation + " failed on " + endpoint + ": " + reason, e);
  }
}
