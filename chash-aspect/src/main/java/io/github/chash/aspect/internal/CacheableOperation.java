package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCacheable;
import io.github.chash.cache.NullValue;
import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.Durations;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/** {@link ShardedCacheable}: return the cached value, or run the method and cache its result. */
public final class CacheableOperation extends CacheOperation {
  private final boolean sync;
  private final boolean cacheNull;
  private final Duration ttl;

  /** Futures being computed, for {@code sync}: concurrent callers share the running one. */
  private final ConcurrentHashMap<String, CompletableFuture<Object>> running;

  /**
   * Compiles the operation of a method.
   *
   * @throws IllegalStateException naming the method if the annotation is unusable
   */
  public CacheableOperation(Method method, ShardedCacheable annotation) {
    super(method, "@ShardedCacheable", annotation.cache(), annotation.key());
    if (method.getReturnType() == void.class) {
      throw new IllegalStateException(
          methodName + ": @ShardedCacheable on a void method has nothing to cache");
    }
    this.sync = annotation.sync();
    this.cacheNull = annotation.cacheNull();
    this.ttl = parseTtl(annotation.ttl());
    this.running = sync && kind == ReturnKind.FUTURE ? new ConcurrentHashMap<>() : null;
  }

  private Duration parseTtl(String text) {
    if (text.isEmpty()) {
      return null;
    }
    try {
      Duration parsed = Durations.parse(text);
      if (parsed.isZero()) {
        throw new IllegalArgumentException("duration must be positive; was \"" + text + "\"");
      }
      return parsed;
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          methodName + ": ttl \"" + text + "\" of @ShardedCacheable is invalid: " + e.getMessage(),
          e);
    }
  }

  @Override
  ShardedCache configure(ShardedCache cache) {
    return ttl == null ? cache : cache.withTtl(ttl);
  }

  /** What {@link #lookup} returns when the cache does not hold the call's key. */
  public static final Object MISS = new Object();

  @Override
  public Object invoke(Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable {
    ShardedCache cache = cache(manager);
    String routingKey = key.evaluate(args);
    Object stored = cache.getIfPresent(routingKey, valueType);
    return stored != null ? hit(stored) : load(cache, routingKey, body);
  }

  /**
   * The first half of {@link #invoke}: the method's result from the cache (an {@code Optional} or a
   * completed future for such methods), or {@link #MISS}. Counts the hit or the miss.
   */
  public Object lookup(Object[] args, ShardedCacheManager manager) {
    Object stored = cache(manager).getIfPresent(key.evaluate(args), valueType);
    return stored != null ? hit(stored) : MISS;
  }

  /**
   * The second half of {@link #invoke}, after {@link #lookup} missed: runs the method (once per key
   * and JVM with {@code sync}), caches its result and returns it; rethrows what the method throws
   * as it is, checked or not (see {@link #invokeRethrowing}). Evaluates the key again: the woven
   * aspect calls the two halves from two pieces of advice, which share no state.
   */
  public Object loadRethrowing(Object[] args, MethodBody body, ShardedCacheManager manager) {
    try {
      return load(cache(manager), key.evaluate(args), body);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private Object load(ShardedCache cache, String routingKey, MethodBody body) throws Throwable {
    switch (kind) {
      case OPTIONAL:
        return Optional.ofNullable(
            cache.load(routingKey, valueType, () -> cachedValueOf(body.run()), sync, cacheNull));
      case FUTURE:
        return sync ? loadShared(cache, routingKey, body) : loadFuture(cache, routingKey, body);
      default:
        return cache.load(routingKey, valueType, body::run, sync, cacheNull);
    }
  }

  private Object hit(Object stored) {
    Object value = NullValue.unwrap(stored);
    switch (kind) {
      case OPTIONAL:
        return Optional.ofNullable(value);
      case FUTURE:
        return CompletableFuture.completedFuture(value);
      default:
        return value;
    }
  }

  private Object loadFuture(ShardedCache cache, String routingKey, MethodBody body)
      throws Throwable {
    Object future = body.run();
    onSuccess(future, value -> store(cache, routingKey, value));
    return future;
  }

  /** {@code sync} for futures: one running computation per key, which later callers share. */
  private Object loadShared(ShardedCache cache, String routingKey, MethodBody body)
      throws Throwable {
    CompletableFuture<Object> mine = new CompletableFuture<>();
    CompletableFuture<Object> other = running.putIfAbsent(routingKey, mine);
    if (other != null) {
      return other.copy();
    }
    try {
      Object stored = cache.getIfPresent(routingKey, valueType);
      if (stored != null) {
        running.remove(routingKey, mine);
        mine.complete(NullValue.unwrap(stored));
        return hit(stored);
      }
      Object future = body.run();
      if (future == null) {
        running.remove(routingKey, mine);
        mine.completeExceptionally(
            new NullPointerException(methodName + " returned null instead of a future"));
        return null;
      }
      ((CompletionStage<?>) future)
          .whenComplete(
              (value, failure) -> {
                if (failure == null) {
                  store(cache, routingKey, value);
                }
                running.remove(routingKey, mine);
                if (failure == null) {
                  mine.complete(value);
                } else {
                  mine.completeExceptionally(failure);
                }
              });
      return future;
    } catch (Throwable t) {
      running.remove(routingKey, mine);
      mine.completeExceptionally(t);
      throw t;
    }
  }

  private void store(ShardedCache cache, String routingKey, Object value) {
    if (value != null || cacheNull) {
      cache.put(routingKey, value);
    }
  }
}
