package io.github.chash.cache;

/**
 * A node refused a value: it is larger than the node's size limit, cannot be encoded, or what is
 * stored cannot or must not be decoded (corrupt, of another version, of a class outside the
 * allow-list, beyond the decoder's bounds). The node itself is healthy, so this is not a failure:
 * the cache layer counts it as refused, reads it as a miss, and after a refused write deletes the
 * key, so no older value stays readable. Its message names sizes and classes, never values.
 */
public class ValueRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what was refused and why, without the value
   * @param cause the codec's exception, or null
   */
  public ValueRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
