package io.github.chash.spring.cache;

import io.github.chash.cache.NullValue;
import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import java.util.concurrent.Callable;
import org.springframework.cache.interceptor.SimpleKey;
import org.springframework.cache.support.AbstractValueAdaptingCache;

/**
 * One chash cache seen through Spring's {@link org.springframework.cache.Cache}: what
 * {@code @Cacheable}, {@code @CachePut} and {@code @CacheEvict} call. Entries live on the ring's
 * nodes, shared with the {@code @ShardedCache*} annotations of the same cache name.
 *
 * <ul>
 *   <li>Keys: Spring computes the key object (its key generator or SpEL); the routing key is made
 *       from it by chash's canonical key rules, a {@code SimpleKey} of several arguments as those
 *       arguments (see {@link ChashCacheManager}).
 *   <li>Nulls: with {@code allowNullValues} a {@code null} is stored as chash's {@link NullValue}
 *       (the marker both annotation families read as a cached null); without it, storing {@code
 *       null} is refused as Spring's own caches refuse it.
 *   <li>{@link #get(Object, Callable)} ({@code sync = true}): one caller per key and JVM runs the
 *       loader, the others wait for its value, through chash's in-flight de-duplication.
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
    // a SimpleKey is routed by its arguments; any other key as the aspect's #p0 is, so a String or
    // numeric key's hit builds no routing key
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
