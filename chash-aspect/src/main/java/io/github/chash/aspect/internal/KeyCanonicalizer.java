package io.github.chash.aspect.internal;

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
   * Returns the canonical string of a whole argument list (the key of a method without a key
   * expression): empty for none, one argument's own form, several joined with their separators
   * escaped.
   *
   * @param args the arguments
   * @param method the method, for the error message
   * @param parameterNames the parameters' names, for the error message
   * @throws IllegalArgumentException if an argument has no stable string form, naming it
   */
  String arguments(Object[] args, String method, String[] parameterNames);
}
