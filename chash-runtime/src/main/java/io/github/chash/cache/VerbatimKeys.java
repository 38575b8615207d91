package io.github.chash.cache;

/**
 * The routing keys of a verbatim cache ({@code keys: verbatim}): {@code "\0" + cacheName + "\0" +
 * key}. The ring hashes only {@code key}, and a remote node stores it as {@code key} (no {@code
 * keyPrefix}) with the cache's codec, so a peer client's entry at {@code user:42} is read and
 * written in place. The marked form keeps each cache's routing keys distinct from every other
 * cache's (cache names have no control characters), so the protocol's per-key state (copy marks,
 * write stripes, loads in flight) never mixes two caches; a prefixed routing key never starts with
 * {@code \0}. One check of the first character tells the two apart. Stateless.
 */
public final class VerbatimKeys {
  private static final char MARK = '\0';

  private VerbatimKeys() {}

  /** {@return the prefix of every routing key of the verbatim cache {@code cacheName}} */
  static String prefix(String cacheName) {
    return MARK + cacheName + MARK;
  }

  /**
   * {@return whether the routing key is a verbatim cache's}
   *
   * @param routingKey a routing key
   */
  public static boolean isVerbatim(String routingKey) {
    return isVerbatim((CharSequence) routingKey);
  }

  /** {@link #isVerbatim(String)} of a routing key that may be a {@code RoutingKey}. */
  static boolean isVerbatim(CharSequence routingKey) {
    return routingKey.length() > 0 && routingKey.charAt(0) == MARK;
  }

  /**
   * {@return the key as the application gave it, which the ring hashes and a remote node stores;
   * {@code routingKey} itself for a prefixed cache's key}
   *
   * @param routingKey a routing key
   */
  public static String key(String routingKey) {
    return isVerbatim(routingKey)
        ? routingKey.substring(routingKey.indexOf(MARK, 1) + 1)
        : routingKey;
  }

  /**
   * {@return why a remote node must not send a verbatim key, or null when it may} A key that starts
   * with the node's {@code keyPrefix} lies in this library's own namespace, where the prefixed
   * caches' entries and the node's bookkeeping live: a verbatim put or evict there would overwrite
   * or delete another cache's entry, so it is refused before anything is sent (the caller's
   * mistake, which never counts against the node).
   *
   * @param key a verbatim key as the application gave it ({@link #key})
   * @param keyPrefix the node's prefix of every key it writes for prefixed caches
   */
  public static String prefixProblem(String key, String keyPrefix) {
    return key.startsWith(keyPrefix)
        ? "a verbatim key starting with the keyPrefix \""
            + keyPrefix
            + "\" lies in this library's own namespace, where it would overwrite or delete"
            + " another cache's entries; not sent"
        : null;
  }

  /** {@return what the ring hashes for the routing key: {@link #key} of a verbatim one} */
  static CharSequence hashed(CharSequence routingKey) {
    if (!isVerbatim(routingKey)) {
      return routingKey;
    }
    String s = routingKey.toString();
    return s.substring(s.indexOf(MARK, 1) + 1);
  }

  /**
   * {@return the name of the cache the routing key belongs to}
   *
   * @param routingKey a routing key, verbatim ({@code \0name\0key}) or prefixed ({@code name:key})
   */
  public static String cacheName(String routingKey) {
    return isVerbatim(routingKey)
        ? routingKey.substring(1, routingKey.indexOf(MARK, 1))
        : routingKey.substring(0, Math.max(0, routingKey.indexOf(':')));
  }
}
