package io.github.chash.aspect.internal;

import io.github.chash.cache.ShardedCache;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;

/**
 * Turns one key part into its canonical string, the form every JVM agrees on.
 *
 * <p>Implementations are thread-safe.
 */
public interface KeyCanonicalizer {

  /**
   * {@return the canonical string of a key part}
   *
   * @param value the part, may be null
   * @param where what the part is, for the error message (method and parameter)
   * @throws IllegalArgumentException if the value has no stable string form, naming {@code where}
   */
  String canonical(Object value, String where);

  /**
   * Returns {@code prefix} followed by the canonical string of a key part: the routing key of a key
   * that is one part. Implementations may build it without the part's own string.
   *
   * @throws IllegalArgumentException if the value has no stable string form, naming {@code where}
   */
  default String prefixed(String prefix, Object value, String where) {
    return prefix.concat(canonical(value, where));
  }

  /** {@link #prefixed(String, Object, String)} of a {@code long}, which need not be boxed. */
  default String prefixed(String prefix, long value, String where) {
    return prefixed(prefix, (Object) value, where);
  }

  /**
   * Looks a key of one part up in {@code cache}, whose routing keys are {@code prefix} and the
   * part's canonical string. Implementations whose forms are the cache's own may hand it the part,
   * so that it need not build the routing key.
   *
   * @throws IllegalArgumentException if the value has no stable string form, naming {@code where}
   */
  default Object lookup(
      InterceptedCache cache, String prefix, Object value, String where, ValueType type) {
    return cache.getIfPresent(prefixed(prefix, value, where), type);
  }

  /** {@link #lookup(ShardedCache, String, Object, String, ValueType)} of a {@code long}. */
  default Object lookup(
      InterceptedCache cache, String prefix, long value, String where, ValueType type) {
    return cache.getIfPresent(prefixed(prefix, value, where), type);
  }

  /**
   * Returns the canonical string of a whole argument list (the key of a method without a key
   * expression): empty for none, one argument's own form, several joined with their separators
   * escaped}
   *
   * @param args the arguments
   * @param method the method, for the error message
   * @param parameterNames the parameters' names, for the error message
   * @throws IllegalArgumentException if an argument has no stable string form, naming it
   */
  String arguments(Object[] args, String method, String[] parameterNames);
}
