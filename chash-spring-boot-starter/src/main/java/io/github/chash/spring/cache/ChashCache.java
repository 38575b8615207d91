package io.github.chash.spring.cache;

import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.EncodedValue;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.NullValue;
import io.github.chash.internal.cache.ValueLoader;
import io.github.chash.ring.RoutingKey;
import java.lang.invoke.MethodType;
import java.lang.reflect.Type;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.cache.support.AbstractValueAdaptingCache;

/**
 * One chash cache seen through Spring's {@link org.springframework.cache.Cache}: what
 * {@code @Cacheable}, {@code @CachePut} and {@code @CacheEvict} call. Entries live on the ring's
 * nodes, shared with the {@code @ShardedCache*} annotations of the same cache name.
 *
 * <ul>
 *   <li>Keys: Spring computes the key object (its key generator or SpEL); the routing key is made
 *       from it by chash's canonical key rules, the key {@link ChashKeyGenerator} makes of several
 *       arguments as those arguments (see {@link ChashCacheManager}).
 *   <li>Nulls: with {@code allowNullValues} a {@code null} is stored as chash's {@link NullValue}
 *       (the marker both annotation families read as a cached null); without it, storing {@code
 *       null} is refused as Spring's own caches refuse it.
 *   <li>{@link #get(Object, Callable)} ({@code sync = true}): one caller per key and JVM runs the
 *       loader, the others wait for its value, through chash's in-flight de-duplication.
 *   <li>{@link #retrieve(Object)} and {@link #retrieve(Object, Supplier)}: {@code @Cacheable} on a
 *       method returning a {@code CompletableFuture}, or a Reactor {@code Mono} or {@code Flux}
 *       (Spring 6.1's asynchronous cache contract). With {@code sync = true} concurrent callers of
 *       a key share one running future, through the same in-flight de-duplication as the blocking
 *       loads and chash's own annotations; a future that fails stores nothing, and a value is not
 *       stored when a write of the key began after the future started. The lookup itself runs on
 *       the caller's thread (bounded by the node's timeout, as the annotations' lookup of a future
 *       method is); only the loading is asynchronous.
 *   <li>{@link #clear()} ({@code allEntries = true}) removes this cache's entries on every node.
 *   <li>{@link #putIfAbsent} is Spring's default get-then-put, not atomic.
 *   <li>Values as JSON: a cache whose methods declare a value type that JDK serialization cannot
 *       write (a record or class that is not {@code Serializable}) is given that type and a {@link
 *       JsonMapping}; its values are then stored as JSON bytes and read back as the declared
 *       (generic) type, with no class name in the data. Remote nodes store those bytes as they are,
 *       whatever their codec ({@link EncodedValue}), so other clients read plain JSON. A value that
 *       cannot be written is not stored (its key is evicted, so no older value stays readable) and
 *       JSON that cannot be read is a miss: both are counted in {@link #refusedCount()}, logged at
 *       WARN the first time for each reason, and never fail the call.
 *   <li>Values of another class: when the cache's methods declare one value type, a value read that
 *       is not of its class (another client's, another annotation's, or a {@code Map} a codec
 *       without class names read) is a miss, counted in {@link #refusedCount()}, and is replaced by
 *       the loaded value; it never reaches the call, which would fail casting it.
 * </ul>
 *
 * <p>A failing node is a miss and a skipped write, never an exception (chash's failure policy).
 * Thread-safe.
 */
public final class ChashCache extends AbstractValueAdaptingCache {
  private static final Log LOG = LogFactory.getLog(ChashCache.class);

  /** What remote nodes read for a cache stored as JSON: the JSON's bytes, past their codec. */
  private static final ValueType JSON_BYTES = ValueType.of(EncodedValue.class);

  /** The distinct refusal reasons logged at WARN, at most; later ones go to DEBUG. */
  private static final int LOGGED_REASONS_LIMIT = 100;

  private final InterceptedCache cache;
  private final String where;

  /** How values are stored as JSON, or null when they are stored as they are. */
  private final Json json;

  /**
   * The class values of this cache are read as (boxed): the raw class of its methods' one declared
   * value type, {@code Object} when unknown. A value read that is not one is a counted miss.
   */
  private final Class<?> declared;

  private final AtomicLong refused = new AtomicLong();
  private final Set<String> loggedReasons = ConcurrentHashMap.newKeySet();

  /** A cache stored as JSON: the mapping and the declared type values are read as. */
  record Json(JsonMapping mapping, ValueType type) {}

  ChashCache(InterceptedCache cache, boolean allowNullValues) {
    this(cache, allowNullValues, null, null);
  }

  /**
   * @param json how values are stored as JSON, or null when they are stored as they are
   * @param declared the one value type the cache's methods declare, or null when unknown; a JSON
   *     cache's is its JSON type
   */
  ChashCache(InterceptedCache cache, boolean allowNullValues, Json json, Type declared) {
    super(allowNullValues);
    this.cache = cache;
    this.where = "a Spring cache operation on cache \"" + cache.name() + "\"";
    this.json = json;
    Type type = json != null ? json.type().type() : declared;
    this.declared = type == null ? Object.class : boxed(ValueType.of(type).rawClass());
  }

  /**
   * {@return the declared type this cache's values are stored as JSON for, or null when they are
   * stored as they are (through the nodes' codec)}
   */
  public Type jsonType() {
    return json == null ? null : json.type().type();
  }

  /**
   * {@return values this view refused as JSON: values that could not be written (not stored) and
   * stored JSON that could not be read (a miss)} The nodes' own refusals are in the cache's {@link
   * io.github.chash.cache.CacheStats#refusedCount()}.
   */
  public long refusedCount() {
    return refused.get();
  }

  @Override
  public String getName() {
    return cache.name();
  }

  /** The chash cache behind this one. */
  @Override
  public ShardedCache getNativeCache() {
    return cache;
  }

  @Override
  protected Object lookup(Object key) {
    // a key of arguments is routed by its arguments; any other key as the aspect's #p0 is, so a
    // String or numeric key's hit builds no string: its routing key is made from its form
    ValueType type = json == null ? ValueType.OBJECT : JSON_BYTES;
    Object stored = cache.getIfPresent(key(key), type);
    return json == null ? declared(stored) : fromJson(stored);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> T get(Object key, Callable<T> valueLoader) {
    RoutingKey routingKey = key(key);
    try {
      if (json == null) {
        Object stored =
            cache.get(routingKey, ValueType.OBJECT, valueLoader::call, true, isAllowNullValues());
        if (stored != null && declared(stored) == null) {
          // of another class: removed, so that the load stores the declared one
          cache.evict(routingKey);
          stored =
              cache.load(
                  routingKey, ValueType.OBJECT, valueLoader::call, true, isAllowNullValues());
          if (stored != null && declared(stored) == null) { // written again meanwhile
            return valueLoader.call();
          }
        }
        return (T) fromStoreValue(stored);
      }
      // the value this caller's loader returned, if it ran: not read back from its JSON
      AtomicReference<Object> own = new AtomicReference<>(NOT_LOADED);
      ValueLoader<Object> load =
          () -> {
            Object value = valueLoader.call();
            own.set(value);
            return toJsonOrThrow(value);
          };
      Object stored = cache.get(routingKey, JSON_BYTES, load, true, isAllowNullValues());
      if (own.get() != NOT_LOADED) {
        return (T) own.get();
      }
      Object value = fromJson(stored);
      if (stored != null && value == null) { // JSON that cannot be read: load over it
        stored = cache.load(routingKey, JSON_BYTES, load, true, isAllowNullValues());
        value = own.get() != NOT_LOADED ? own.get() : fromJson(stored);
      }
      return (T) fromStoreValue(value);
    } catch (Unstorable u) {
      return (T) u.value; // not stored, already counted; the call goes on
    } catch (Throwable t) {
      // Spring's cache interceptor rethrows the cause: the method's own exception.
      throw new ValueRetrievalException(key, valueLoader, t);
    }
  }

  /**
   * {@return the cached value as a completed future (wrapped in a {@link ValueWrapper} when nulls
   * are cached, so a cached {@code null} is one), or a future of {@code null} on a miss} Spring
   * calls it for a {@code CompletableFuture} or reactive method without {@code sync}, and stores
   * the method's value with {@link #put} once its future completes. A miss answers a completed
   * future rather than {@code null}, so Spring does not look the key up a second time.
   *
   * @throws IllegalArgumentException if the key has no stable form
   */
  @Override
  public CompletableFuture<?> retrieve(Object key) {
    Object stored = lookup(key);
    if (stored == null) {
      return CompletableFuture.completedFuture(null);
    }
    return CompletableFuture.completedFuture(
        isAllowNullValues() ? toValueWrapper(stored) : fromStoreValue(stored));
  }

  /**
   * {@return the cached value as a completed future, else the future {@code valueLoader} starts,
   * whose value is stored when it completes (a {@code null} only when nulls are cached)} Spring
   * calls it for a {@code CompletableFuture} or reactive method with {@code sync = true}: one
   * caller per key and JVM starts the loader, the others get a future of its value or its failure
   * (chash's {@link InterceptedCache#loadFuture}). A loader that throws, or returns no future,
   * gives a failed future; a failed future stores nothing.
   *
   * @throws IllegalArgumentException if the key has no stable form
   */
  @Override
  @SuppressWarnings("unchecked")
  public <T> CompletableFuture<T> retrieve(Object key, Supplier<CompletableFuture<T>> valueLoader) {
    RoutingKey routingKey = key(key);
    if (json != null) {
      return retrieveJson(key, routingKey, valueLoader);
    }
    Object read = cache.getIfPresent(routingKey, ValueType.OBJECT);
    Object stored = declared(read);
    if (stored != null) {
      return CompletableFuture.completedFuture((T) fromStoreValue(stored));
    }
    if (read != null) { // of another class: removed, so that the load stores the declared one
      cache.evict(routingKey);
    }
    boolean cacheNull = isAllowNullValues();
    CompletionStage<T> loading;
    try {
      loading =
          cache.loadFuture(
              routingKey,
              ValueType.OBJECT,
              valueLoader::get,
              true,
              value -> value != null || cacheNull);
    } catch (Throwable t) {
      return CompletableFuture.failedFuture(t);
    }
    if (loading == null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "the value loader of key " + key + " in " + where + " returned no future"));
    }
    return loading
        .toCompletableFuture()
        .thenCompose(
            result ->
                result != null && declared(result) == null
                    ? valueLoader.get() // another class, written again meanwhile: load uncached
                    : CompletableFuture.completedFuture(result));
  }

  /**
   * {@link #retrieve(Object, Supplier)} of a cache stored as JSON: the future's value is stored as
   * its JSON (a value that cannot be written is returned and not stored); callers that share
   * another caller's load read it back from that JSON.
   */
  @SuppressWarnings("unchecked")
  private <T> CompletableFuture<T> retrieveJson(
      Object key, RoutingKey routingKey, Supplier<CompletableFuture<T>> valueLoader) {
    Object stored = fromJson(cache.getIfPresent(routingKey, JSON_BYTES));
    if (stored != null) {
      return CompletableFuture.completedFuture((T) fromStoreValue(stored));
    }
    boolean cacheNull = isAllowNullValues();
    AtomicReference<Object> own = new AtomicReference<>(NOT_LOADED);
    CompletionStage<Object> loading;
    try {
      loading =
          cache.loadFuture(
              routingKey,
              JSON_BYTES,
              () -> {
                CompletableFuture<T> future = valueLoader.get();
                return future == null
                    ? null
                    : future.thenApply(
                        value -> {
                          own.set(value);
                          return toJsonOrHolder(value);
                        });
              },
              true,
              value -> value instanceof EncodedValue || (value == null && cacheNull));
    } catch (Throwable t) {
      return CompletableFuture.failedFuture(t);
    }
    if (loading == null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "the value loader of key " + key + " in " + where + " returned no future"));
    }
    return loading
        .toCompletableFuture()
        .thenCompose(
            result -> {
              if (own.get() != NOT_LOADED) {
                return CompletableFuture.completedFuture((T) own.get());
              }
              if (result == null || result instanceof Unstorable) {
                return CompletableFuture.completedFuture(
                    result == null ? null : (T) ((Unstorable) result).value);
              }
              Object value = fromJson(result);
              if (value == null) { // another caller's JSON that cannot be read: load uncached
                return valueLoader.get();
              }
              return CompletableFuture.completedFuture((T) fromStoreValue(value));
            });
  }

  @Override
  public void put(Object key, Object value) {
    RoutingKey routingKey = key(key);
    Object stored = toStoreValue(value);
    if (json != null && stored != NullValue.INSTANCE) {
      try {
        stored = new EncodedValue(json.mapping().write(stored));
      } catch (RuntimeException e) {
        refuse(notWritten(stored, e), e);
        cache.evict(routingKey); // no older value stays readable
        return;
      }
    }
    cache.put(routingKey, stored);
  }

  @Override
  public void evict(Object key) {
    cache.evict(key(key));
  }

  @Override
  public void clear() {
    cache.clear();
  }

  /** Stores chash's null marker, so the {@code @ShardedCache*} annotations read a cached null. */
  @Override
  protected Object toStoreValue(Object userValue) {
    if (userValue == null && isAllowNullValues()) {
      return NullValue.INSTANCE;
    }
    return super.toStoreValue(userValue);
  }

  /** A cached null is one, whichever annotation family wrote it. */
  @Override
  protected Object fromStoreValue(Object storeValue) {
    return storeValue == null ? null : NullValue.unwrap(storeValue);
  }

  /** The routing key of a Spring key, made once per call and handed to the cache as it is. */
  RoutingKey key(Object key) {
    return SpringKeys.key(cache, key, where);
  }

  /** {@link #key}'s text, for what names a key. */
  String routingKey(Object key) {
    return key(key).text();
  }

  /** Marks that this caller's loader did not run. */
  private static final Object NOT_LOADED = new Object();

  /**
   * A loaded value that could not be written as JSON: thrown out of a blocking load (so nothing is
   * stored, and the caller and the callers waiting on it get the value), or completed by a future
   * (which {@code storable} then refuses). No stack trace: it is no error of the caller's.
   */
  private static final class Unstorable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    @SuppressWarnings("serial") // never serialized
    final transient Object value;

    Unstorable(Object value) {
      super("value not stored as json", null, false, false);
      this.value = value;
    }
  }

  /** The loaded value's JSON, or null for null; throws {@link Unstorable} if it cannot be. */
  private Object toJsonOrThrow(Object value) {
    Object stored = toJsonOrHolder(value);
    if (stored instanceof Unstorable u) {
      throw u;
    }
    return stored;
  }

  /** The loaded value's JSON, null for null, or an {@link Unstorable} if it cannot be written. */
  private Object toJsonOrHolder(Object value) {
    if (value == null) {
      return null;
    }
    try {
      return new EncodedValue(json.mapping().write(value));
    } catch (RuntimeException e) {
      refuse(notWritten(value, e), e);
      return new Unstorable(value);
    }
  }

  private String notWritten(Object value, RuntimeException e) {
    return "value of class "
        + value.getClass().getName()
        + " not stored: "
        + json.mapping().name()
        + " cannot write it as json: "
        + e.getMessage();
  }

  /**
   * What a node answered for a cache stored as JSON, read: a value of the declared type, the
   * cached-null marker, or null for a miss (JSON that cannot be read is a counted miss).
   */
  private Object fromJson(Object stored) {
    if (stored == null || stored == NullValue.INSTANCE) {
      return stored;
    }
    if (!(stored instanceof EncodedValue encoded)) {
      // a local node's entry written otherwise (by @ShardedCacheable, say): usable if of the type
      return declared(stored);
    }
    try {
      Object value = json.mapping().read(encoded.bytes(), json.type().type());
      return value == null ? NullValue.INSTANCE : value;
    } catch (RuntimeException e) {
      refuse(
          "stored json read as a miss: "
              + json.mapping().name()
              + " cannot read it as "
              + json.type()
              + ": "
              + e.getMessage(),
          e);
      return null;
    }
  }

  /**
   * {@return a value read, if it is of the declared class (or the cached-null marker); else null, a
   * counted miss} A value of another class (written by another client, another annotation of the
   * cache, or read back as a {@code Map} by a codec that writes no class name) is never returned to
   * the business call, which would fail casting it.
   */
  private Object declared(Object stored) {
    if (stored == null || stored == NullValue.INSTANCE || declared.isInstance(stored)) {
      return stored;
    }
    refuse(
        "a value of class "
            + stored.getClass().getName()
            + " read as a miss: its methods declare "
            + declared.getName(),
        null);
    return null;
  }

  private static Class<?> boxed(Class<?> type) {
    return type.isPrimitive() ? MethodType.methodType(type).wrap().returnType() : type;
  }

  /** Counts a refusal and logs it: at WARN the first time for each reason, then at DEBUG. */
  private void refuse(String message, RuntimeException e) {
    refused.incrementAndGet();
    String line = "cache \"" + cache.name() + "\": " + message;
    if (loggedReasons.size() < LOGGED_REASONS_LIMIT && loggedReasons.add(message)) {
      LOG.warn(line + " (later ones are logged at DEBUG)");
    } else if (LOG.isDebugEnabled()) {
      LOG.debug(line, e);
    }
  }

  @Override
  public String toString() {
    return "ChashCache{name="
        + cache.name()
        + ", allowNullValues="
        + isAllowNullValues()
        + (json == null ? "" : ", json=" + json.type())
        + "}";
  }
}
