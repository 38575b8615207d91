package io.github.chash.aspect.internal;

import io.github.chash.cache.CanonicalKeys;

/**
 * The production canonical forms: {@link CanonicalKeys}, the same as the cache layer's, so a key of
 * one parameter may have the cache make its routing key ({@code InterceptedCache.key}).
 */
enum CanonicalKeyCanonicalizer implements KeyCanonicalizer {
  INSTANCE;

  @Override
  public String canonical(Object value, String where) {
    return CanonicalKeys.of(value, where);
  }

  @Override
  public String arguments(Object[] args, String method, String[] parameterNames) {
    return CanonicalKeys.ofArguments(args, method, parameterNames);
  }
}
