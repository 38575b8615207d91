package io.github.chash.aspect.internal;

import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * What one annotated method does around its body, compiled once at its first call: the cache name,
 * the key expression, how results map to cached values. Thread-safe.
 */
public abstract class CacheOperation {
  final String methodName;
  final String cacheName;
  final KeyExpression key;
  final ReturnKind kind;
  final ValueType valueType;
  private volatile Binding binding;

  /** The cache handle of one manager; rebuilt when the aspect's manager changes. */
  private record Binding(ShardedCacheManager manager, ShardedCache cache) {}

  CacheOperation(Method method, String annotation, String cacheName, String keyExpression) {
    this.methodName = MethodNames.describe(method);
    if (cacheName.isBlank()) {
      throw new IllegalStateException(
          methodName + ": " + annotation + " needs a cache name; was \"" + cacheName + "\"");
    }
    this.cacheName = cacheName;
    this.kind = ReturnKind.of(method);
    this.valueType = kind.valueType(method);
    this.key =
        KeyExpressions.compile(
            method, keyExpression, cacheName + ":", CanonicalKeyCanonicalizer.INSTANCE);
  }

  /**
   * Runs the advice for one call.
   *
   * @param args the call's arguments
   * @param body runs the method itself
   * @param manager the manager the advice uses now
   * @return the method's result, or the cached one
   * @throws Throwable whatever the method throws
   */
  public abstract Object invoke(Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable;

  /**
   * {@link #invoke}, for callers that cannot declare {@code Throwable} (code-style AspectJ advice):
   * rethrows whatever the method throws as it is, checked or not. The advised method's own {@code
   * throws} clause allowed it, so its callers are ready for it.
   */
  public final Object invokeRethrowing(
      Object[] args, MethodBody body, ShardedCacheManager manager) {
    try {
      return invoke(args, body, manager);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Throws {@code t} as it is; declared to return an exception so callers can write {@code throw}.
   */
  static RuntimeException rethrow(Throwable t) {
    throw CacheOperation.<RuntimeException>sneakyThrow(t);
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneakyThrow(Throwable t) throws T {
    throw (T) t;
  }

  /**
   * Returns this method's cache on the manager, failing with the method's name if it is unknown.
   */
  final ShardedCache cache(ShardedCacheManager manager) {
    Binding b = binding;
    if (b != null && b.manager == manager) {
      return b.cache;
    }
    ShardedCache cache;
    try {
      cache = configure(manager.cache(cacheName));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(methodName + ": " + e.getMessage(), e);
    }
    binding = new Binding(manager, cache);
    return cache;
  }

  /** Adjusts the handle to the annotation (a TTL of its own). */
  ShardedCache configure(ShardedCache cache) {
    return cache;
  }

  /** The value to cache for a result: an Optional's content, or the result itself. */
  final Object cachedValueOf(Object result) {
    if (kind == ReturnKind.OPTIONAL) {
      return result == null ? null : ((Optional<?>) result).orElse(null);
    }
    return result;
  }

  /** Runs {@code action} with the future's value when it completes normally. */
  static void onSuccess(Object future, Consumer<Object> action) {
    if (future != null) {
      ((CompletionStage<?>) future)
          .whenComplete(
              (value, failure) -> {
                if (failure == null) {
                  action.accept(value);
                }
              });
    }
  }
}
