/**
 * Remote cache nodes on Redis (or Valkey) servers, through Lettuce.
 *
 * <p>The only public class is {@link io.github.chash.redis.RedisCacheNodeFactory}, the {@link
 * io.github.chash.cache.CacheNodeFactory} of {@code type: redis} nodes; the cache layer finds it
 * with {@link java.util.ServiceLoader}. Lettuce (and Jackson, for {@code redis.codec: jackson}) are
 * optional dependencies: nothing here loads them unless a Redis node is configured, and the {@code
 * cache} package never refers to this one.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.redis;
