/**
 * chash's runtime: consistent-hash rings, the {@code chash.yaml} model and the sharded cache with
 * its local nodes and the SPI other node types plug in through ({@code io.github.chash.redis} and
 * {@code io.github.chash.memcached} are such modules, each its own artifact).
 *
 * <p>The API is the unqualified exports. The {@code internal} packages are shared with chash's own
 * modules only (the aspect, the Maven plugin, the Spring Boot starter, the Redis and memcached
 * nodes compile against them); they may change in any release. Jackson ({@code codec: jackson}) is
 * optional: {@code requires static}, loaded only when a codec needs it.
 */
module io.github.chash.runtime {
  requires transitive io.github.chash.ring;
  requires com.dynatrace.hash4j;
  requires com.github.benmanes.caffeine;
  requires org.snakeyaml.engine;
  requires static com.fasterxml.jackson.core;
  requires static com.fasterxml.jackson.databind;

  exports io.github.chash.config;
  exports io.github.chash.cache;
  exports io.github.chash.analysis;
  exports io.github.chash.membership;
  exports io.github.chash.internal.cache to
      io.github.chash.aspect,
      io.github.chash.spring.boot,
      io.github.chash.memcached;
  exports io.github.chash.internal.keys to
      io.github.chash.aspect,
      io.github.chash.maven,
      io.github.chash.redis,
      io.github.chash.memcached;
  exports io.github.chash.internal.text to
      io.github.chash.aspect,
      io.github.chash.maven,
      io.github.chash.spring.boot,
      io.github.chash.redis,
      io.github.chash.memcached;
  exports io.github.chash.internal.codec to
      io.github.chash.redis,
      io.github.chash.memcached;
  exports io.github.chash.internal.node to
      io.github.chash.redis,
      io.github.chash.memcached;

  uses io.github.chash.cache.CacheNodeFactory;
}
