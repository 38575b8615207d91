/**
 * Spring's cache abstraction over chash: {@link io.github.chash.spring.cache.ChashCacheManager}
 * lets plain {@code @Cacheable}, {@code @CachePut} and {@code @CacheEvict} route through the ring.
 * Needs only Spring Framework; the Spring Boot starter wires it up.
 */
package io.github.chash.spring.cache;
