/**
 * Remote cache nodes on Redis (or Valkey) servers, through Lettuce.
 *
 * <p>The only public class is {@link io.github.chash.redis.RedisCacheNodeFactory}, the {@link
 * io.github.chash.cache.CacheNodeFactory} of {@code type: redis} nodes; the cache layer finds it
 * with {@link java.util.ServiceLoader}. Lettuce (and Jackson, for {@code redis.codec: jackson}) are
 * optional dependencies: nothing here loads them unless a Redis node is configured, and the {@code
 * cache} package never refers to this one.
 */
package io.github.chash.redis;
