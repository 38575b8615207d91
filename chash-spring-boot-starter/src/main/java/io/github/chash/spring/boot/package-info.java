/**
 * Spring Boot auto-configuration of chash: the {@link io.github.chash.cache.ShardedCacheManager}
 * from {@code chash.yaml}, Spring's cache manager over the ring and the {@code @ShardedCache*}
 * advisors ({@link io.github.chash.spring.boot.ChashAutoConfiguration}), configured by the {@code
 * chash.*} properties ({@link io.github.chash.spring.boot.ChashProperties}).
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.spring.boot;
