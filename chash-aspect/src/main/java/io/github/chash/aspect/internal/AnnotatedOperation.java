package io.github.chash.aspect.internal;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.keys.AnnotationRules;
import io.github.chash.internal.keys.AnnotationRules.Attribute;
import io.github.chash.internal.keys.CacheAnnotation;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The operation of one chash annotation: its cache, key and condition compiled, how results map to
 * cached values. Thread-safe.
 */
abstract class AnnotatedOperation extends CacheOperation {
  private static final System.Logger LOG = System.getLogger(AnnotatedOperation.class.getName());

  final AdvisedMethod method;
  final CacheAnnotation annotation;
  final String methodName;
  final String cacheName;
  final Duration ttl;
  final KeyExpression key;

  /** Tested before (or, for puts and late evictions, after) the method; null for always. */
  final Condition condition;

  final ReturnKind kind;
  final ValueType valueType;
  private volatile Binding binding;

  /** The cache handle of one manager; rebuilt when the aspect's manager changes. */
  private record Binding(ShardedCacheManager manager, InterceptedCache cache) {}

  AnnotatedOperation(AdvisedMethod method, AnnotationRules.Checked checked) {
    this.method = method;
    this.annotation = checked.source();
    this.methodName = method.description;
    this.cacheName = checked.cache();
    this.ttl = checked.ttl();
    this.kind = ReturnKind.of(method.method);
    this.valueType = kind.valueType(method.method);
    this.key =
        ExpressionCompiler.key(
            method,
            annotation,
            checked.key(),
            cacheName + ":",
            valueType.rawClass(),
            CanonicalKeyCanonicalizer.INSTANCE);
    this.condition = compile(Attribute.CONDITION, checked.condition());
  }

  /** Compiles a condition or unless of this annotation; null stays null. */
  final Condition compile(Attribute attribute, io.github.chash.internal.keys.Expression parsed) {
    return ExpressionCompiler.condition(
        method, annotation, attribute, parsed, valueType.rawClass());
  }

  /** Whether the condition lets the annotation act on this call. */
  final boolean applies(Object[] args, Object result) {
    return condition == null || condition.test(args, result);
  }

  /**
   * Returns this method's cache on the manager, failing with the method's name if it is unknown.
   */
  final InterceptedCache cache(ShardedCacheManager manager) {
    Binding b = binding;
    if (b != null && b.manager == manager) {
      return b.cache;
    }
    InterceptedCache cache;
    try {
      cache = InterceptedCache.of(manager.cache(cacheName));
      if (ttl != null) {
        cache = cache.withTtl(ttl);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          methodName + ": " + annotation.displayName() + " " + e.getMessage(), e);
    }
    binding = new Binding(manager, cache);
    return cache;
  }

  /** The value to cache for a result: an Optional's content, or the result itself. */
  final Object cachedValueOf(Object result) {
    if (kind == ReturnKind.OPTIONAL) {
      return result == null ? null : ((Optional<?>) result).orElse(null);
    }
    return result;
  }

  /**
   * Runs {@code action} with the future's value when it completes normally. A failing action (a key
   * that cannot be read, say) is logged: the caller already has the future, and its own outcome
   * must not change.
   */
  final void onSuccess(Object future, Consumer<Object> action) {
    if (future == null) {
      return;
    }
    ((CompletionStage<?>) future)
        .whenComplete(
            (value, failure) -> {
              if (failure != null) {
                return;
              }
              try {
                action.accept(value);
              } catch (RuntimeException e) {
                afterCompletionFailed(e);
              }
            });
  }

  /** Logs an action on a completed future that failed: the caller's outcome stays as it was. */
  final void afterCompletionFailed(RuntimeException e) {
    LOG.log(
        Level.WARNING,
        methodName
            + ": "
            + annotation.displayName()
            + " could not act on the completed future: "
            + e.getMessage(),
        e);
  }
}
