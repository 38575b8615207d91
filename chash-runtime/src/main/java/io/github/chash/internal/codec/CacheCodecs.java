package io.github.chash.internal.codec;

import io.github.chash.cache.VerbatimKeys;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The value rules of one remote node by cache: the node block's ({@code redis.codec}) for every
 * cache without a {@code codec} of its own, and each other cache's own. Immutable; thread-safe.
 */
public final class CacheCodecs {
  private final StoredValues shared;
  private final Map<String, StoredValues> byCache;

  /**
   * @param shared the node block's rules
   * @param byCache the rules of the caches with a codec of their own, by cache name
   */
  public CacheCodecs(StoredValues shared, Map<String, StoredValues> byCache) {
    this.shared = shared;
    this.byCache = Map.copyOf(byCache);
  }

  /**
   * {@return the rules of a node's caches: {@code shared} for every cache, each cache's own codec
   * where it names one}
   *
   * @param shared the node block's codec
   * @param byCache the codecs of the caches with their own, by cache name
   * @param rules the rules of values in a codec (size limit, refusals)
   */
  public static CacheCodecs of(
      ValueCodec shared,
      Map<String, ValueCodec> byCache,
      Function<ValueCodec, StoredValues> rules) {
    Map<String, StoredValues> own = new HashMap<>();
    byCache.forEach((cache, codec) -> own.put(cache, rules.apply(codec)));
    return new CacheCodecs(rules.apply(shared), own);
  }

  /**
   * {@return the rules of the cache the routing key belongs to}
   *
   * @param routingKey the routing key (the cache's prefix and the key)
   */
  public StoredValues of(String routingKey) {
    if (byCache.isEmpty()) {
      return shared; // the common case costs nothing
    }
    StoredValues own = byCache.get(VerbatimKeys.cacheName(routingKey));
    return own != null ? own : shared;
  }
}
