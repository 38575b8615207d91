package io.github.chash.aspect.internal;

import io.github.chash.cache.CanonicalKeys;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;

/** The production canonical forms: {@link CanonicalKeys}, the same as the cache layer's. */
enum CanonicalKeyCanonicalizer implements KeyCanonicalizer {
  INSTANCE;

  @Override
  public String canonical(Object value, String where) {
    return CanonicalKeys.of(value, where);
  }

  @Override
  public String prefixed(String prefix, Object value, String where) {
    return CanonicalKeys.prefixed(prefix, value, where);
  }

  @Override
  public String prefixed(String prefix, long value, String where) {
    return prefix + value; // one string: a long's canonical form is its decimal
  }

  // A cache's routing key is its name, ':' and the CanonicalKeys form (ShardedCache.routingKey),
  // which is this prefix and form: the cache may look the key up without building the string.
  @Override
  public Object lookup(
      InterceptedCache cache, String prefix, Object value, String where, ValueType type) {
    return cache.getIfPresentByKey(value, where, type);
  }

  @Override
  public Object lookup(
      InterceptedCache cache, String prefix, long value, String where, ValueType type) {
    return cache.getIfPresentByKey(value, type);
  }

  @Override
  public String arguments(Object[] args, String method, String[] parameterNames) {
    return CanonicalKeys.ofArguments(args, method, parameterNames);
  }
}
