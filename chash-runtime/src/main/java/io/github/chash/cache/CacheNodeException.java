package io.github.chash.cache;

/**
 * A cache node failed to answer: a backend error or a timeout.
 *
 * <p>Thrown by {@link CacheNode} implementations and handled by the cache layer, which counts it
 * and treats the call as a miss; it never reaches the callers of a {@link ShardedCache}.
 */
public class CacheNodeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The id of the failing node. */
  private final String nodeId;

  /**
   * Creates an exception for the given node.
   *
   * @param nodeId id of the failing node
   * @param message lower-case description of what failed (never a secret)
   * @param cause the backend's exception, or null
   */
  public CacheNodeException(String nodeId, String message, Throwable cause) {
    super("node \"" + nodeId + "\": " + message, cause);
    this.nodeId = nodeId;
  }

  /** {@return the id of the failing node} */
  public String nodeId() {
    return nodeId;
  }
}
