/**
 * chash's runtime: consistent-hash rings, the {@code chash.yaml} model and the sharded cache with
 * its local, Redis and memcached nodes.
 *
 * <p>The API is the six unqualified exports. The {@code internal} packages are shared with chash's
 * own modules only (the aspect and the Maven plugin compile against them); they may change in any
 * release. Lettuce (Redis nodes), XMemcached (memcached nodes) and Jackson ({@code redis.codec:
 * jackson}) are optional: {@code requires static}, loaded only when a node or codec needs them.
 */
module io.github.chash.runtime {
  requires com.dynatrace.hash4j;
  requires com.github.benmanes.caffeine;
  requires org.snakeyaml.engine;
  requires static lettuce.core;
  requires static io.netty.common;
  requires static io.netty.transport;
  requires static com.fasterxml.jackson.core;
  requires static com.fasterxml.jackson.databind;

  exports io.github.chash.ring;
  exports io.github.chash.config;
  exports io.github.chash.cache;
  exports io.github.chash.redis;
  exports io.github.chash.memcached;
  exports io.github.chash.analysis;
  exports io.github.chash.internal.cache to
      io.github.chash.aspect,
      io.github.chash.spring.boot;
  exports io.github.chash.internal.keys to
      io.github.chash.aspect,
      io.github.chash.maven;
  exports io.github.chash.internal.text to
      io.github.chash.aspect,
      io.github.chash.maven,
      io.github.chash.spring.boot;

  uses io.github.chash.cache.CacheNodeFactory;

  provides io.github.chash.cache.CacheNodeFactory with
      io.github.chash.redis.RedisCacheNodeFactory,
      io.github.chash.memcached.MemcachedCacheNodeFactory;
}
