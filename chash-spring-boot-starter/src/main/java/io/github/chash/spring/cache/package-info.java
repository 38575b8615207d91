/**
 * Spring's cache abstraction over chash: {@link io.github.chash.spring.cache.ChashCacheManager}
 * lets plain {@code @Cacheable}, {@code @CachePut} and {@code @CacheEvict} route through the ring.
 * Needs only Spring Framework; the Spring Boot starter wires it up.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.spring.cache;
