package io.github.chash.spring.cache;

import io.github.chash.cache.NullValue;
import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.springframework.cache.interceptor.SimpleKey;
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
 * </ul>
 *
 * <p>A failing node is a miss and a skipped write, never an exception (chash's failure policy).
 * Thread-safe.
 */
public final class ChashCache extends AbstractValueAdaptingCache {
  private final InterceptedCache cache;
  private final String where;

  ChashCache(InterceptedCache cache, boolean allowNullValues) {
    super(allowNullValues);
    this.cache = cache;
    this.where = "a Spring cache operation on cache \"" + cache.name() + "\"";
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
    // String or numeric key's hit builds no routing key
    return key instanceof SimpleKey
        ? cache.getIfPresent(routingKey(key), ValueType.OBJECT)
        : cache.getIfPresentByKey(key, where, ValueType.OBJECT);
  }

  @Override
  public <T> T get(Object key, Callable<T> valueLoader) {
    String routingKey = routingKey(key);
    try {
      return cache.get(routingKey, ValueType.OBJECT, valueLoader::call, true, isAllowNullValues());
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
    String routingKey = routingKey(key);
    Object stored = cache.getIfPresent(routingKey, ValueType.OBJECT);
    if (stored != null) {
      return CompletableFuture.completedFuture((T) fromStoreValue(stored));
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
    return loading.toCompletableFuture();
  }

  @Override
  public void put(Object key, Object value) {
    cache.put(routingKey(key), toStoreValue(value));
  }

  @Override
  public void evict(Object key) {
    cache.evict(routingKey(key));
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

  String routingKey(Object key) {
    return SpringKeys.routingKey(cache, key, where);
  }

  @Override
  public String toString() {
    return "ChashCache{name=" + cache.name() + ", allowNullValues=" + isAllowNullValues() + "}";
  }
}
