package io.github.chash.aspect.internal;

import io.github.chash.cache.CanonicalKeys;

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

  @Override
  public String arguments(Object[] args, String method, String[] parameterNames) {
    return CanonicalKeys.ofArguments(args, method, parameterNames);
  }
}
