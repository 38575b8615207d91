package io.github.chash.aspect.internal;

import io.github.chash.aspect.ShardedCacheable;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.NullValue;
import io.github.chash.internal.cache.ValueLoader;
import io.github.chash.internal.keys.AnnotationRules;
import io.github.chash.internal.keys.AnnotationRules.Attribute;
import io.github.chash.ring.RoutingKey;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** {@link ShardedCacheable}: return the cached value, or run the method and cache its result. */
public final class CacheableOperation extends AnnotatedOperation {
  private final boolean sync;
  private final boolean cacheNull;

  /** Tested on the loaded value before it is stored; null for never. Never with sync. */
  private final Condition unless;

  /** What {@link #lookup} returns when the cache does not hold the call's key. */
  public static final Object MISS = new Object();

  CacheableOperation(AdvisedMethod method, AnnotationRules.Checked checked) {
    super(method, checked);
    this.sync = annotation.sync();
    this.cacheNull = annotation.cacheNull();
    this.unless = compile(Attribute.UNLESS, checked.unless());
  }

  @Override
  public Object invoke(Object[] args, MethodBody body, ShardedCacheManager manager)
      throws Throwable {
    if (condition != null && !condition.test(args, null)) {
      return body.run();
    }
    InterceptedCache cache = InterceptedCache.of(cache(manager));
    RoutingKey routingKey = key.routingKey(cache, args, null);
    Object stored = cache.getIfPresent(routingKey, valueType);
    return stored != null ? hit(stored) : load(cache, routingKey, args, body);
  }

  /**
   * {@return the first half of {@link #invoke}: the method's result from the cache (an {@code
   * Optional} or a completed future for such methods), or {@link #MISS}, also when the condition is
   * false} Counts the hit or the miss.
   *
   * @param args the call's arguments
   * @param manager the manager whose cache the operation uses
   */
  public Object lookup(Object[] args, ShardedCacheManager manager) {
    // a method without a condition pays one null check here
    if (condition != null && !condition.test(args, null)) {
      return MISS;
    }
    InterceptedCache cache = cache(manager);
    return found(cache.getIfPresent(key.routingKey(cache, args, null), valueType));
  }

  /**
   * {@link #lookup(Object[], ShardedCacheManager)} for a method whose one parameter is an object: a
   * lone {@code #p0} key needs no argument array (which the JIT does not always remove). A
   * condition reads the arguments, so it gets the array.
   */
  public Object lookupOne(Object onlyArgument, ShardedCacheManager manager) {
    if (condition != null) {
      return lookup(new Object[] {onlyArgument}, manager);
    }
    InterceptedCache cache = cache(manager);
    return found(cache.getIfPresent(key.routingKeyOfOne(cache, onlyArgument), valueType));
  }

  /**
   * {@link #lookup(Object[], ShardedCacheManager)} for a method whose one parameter is a {@code
   * long}: the woven aspect binds it unboxed, so a lone {@code #p0} key boxes nothing. A condition
   * reads the arguments, so it gets them boxed.
   */
  public Object lookup(long onlyArgument, ShardedCacheManager manager) {
    if (condition != null) {
      return lookup(new Object[] {onlyArgument}, manager);
    }
    InterceptedCache cache = cache(manager);
    return found(cache.getIfPresent(key.routingKey(cache, onlyArgument), valueType));
  }

  /**
   * {@return the second half of {@link #invoke}, after {@link #lookup} missed: runs the method
   * (once per key and JVM with {@code sync}), caches its result and returns it; rethrows what the
   * method throws as it is, checked or not (see {@link #invokeRethrowing})} Evaluates the condition
   * and the key again: the woven aspect calls the two halves from two pieces of advice, which share
   * no state.
   *
   * @param args the call's arguments
   * @param body runs the advised method
   * @param manager the manager whose cache the operation uses
   */
  public Object loadRethrowing(Object[] args, MethodBody body, ShardedCacheManager manager) {
    try {
      if (condition != null && !condition.test(args, null)) {
        return body.run();
      }
      InterceptedCache cache = cache(manager);
      return load(cache, key.routingKey(cache, args, null), args, body);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private Object load(InterceptedCache cache, RoutingKey routingKey, Object[] args, MethodBody body)
      throws Throwable {
    switch (kind) {
      case OPTIONAL:
        return Optional.ofNullable(
            loadValue(cache, routingKey, args, () -> cachedValueOf(body.run())));
      case FUTURE:
        // the runtime shares a running future between sync callers and drops a fill that a put
        // overtook, as it does for blocking loads
        return cache.loadFuture(
            routingKey, valueType, () -> asStage(body.run()), sync, value -> storable(args, value));
      default:
        return loadValue(cache, routingKey, args, body::run);
    }
  }

  private Object loadValue(
      InterceptedCache cache, RoutingKey routingKey, Object[] args, ValueLoader<Object> loader)
      throws Throwable {
    // the common case stays small enough to inline into the miss path; unless has its own method
    return unless == null
        ? cache.load(routingKey, valueType, loader, sync, cacheNull)
        : loadUnless(cache, routingKey, args, loader);
  }

  private Object loadUnless(
      InterceptedCache cache, RoutingKey routingKey, Object[] args, ValueLoader<Object> loader)
      throws Throwable {
    // The cache stores what the loader returns unless it is null (cacheNull false here), so a
    // result unless refuses is handed over as null, and a null to cache as the cached-null
    // marker; the caller gets the real result. No sync here (the rules forbid it with unless), so
    // no waiting caller sees the stand-in.
    Object[] loaded = new Object[1];
    cache.load(
        routingKey,
        valueType,
        () -> {
          Object value = loader.load();
          loaded[0] = value;
          if (unless.test(args, value)) {
            return null;
          }
          return value == null && cacheNull ? NullValue.INSTANCE : value;
        },
        false,
        false);
    return loaded[0];
  }

  /** What a lookup returns for what the cache held: the method's result, or {@link #MISS}. */
  private Object found(Object stored) {
    return stored != null ? hit(stored) : MISS;
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

  /**
   * A method of kind FUTURE returns a CompletionStage (ReturnKind checked it when it was woven).
   */
  @SuppressWarnings("unchecked")
  private static CompletionStage<Object> asStage(Object future) {
    return (CompletionStage<Object>) future;
  }

  /**
   * Whether a future's value is stored: a null only with cacheNull, never what unless refuses. An
   * unless that fails is logged and stores nothing: the caller already has the future.
   */
  private boolean storable(Object[] args, Object value) {
    if (value == null && !cacheNull) {
      return false;
    }
    try {
      return unless == null || !unless.test(args, value);
    } catch (RuntimeException e) {
      afterCompletionFailed(e);
      return false;
    }
  }
}
