/**
 * Spring Boot auto-configuration of chash: the {@link io.github.chash.cache.ShardedCacheManager}
 * from {@code chash.yaml}, Spring's cache manager over the ring and the {@code @ShardedCache*}
 * advisors ({@link io.github.chash.spring.boot.ChashAutoConfiguration}), configured by the {@code
 * chash.*} properties ({@link io.github.chash.spring.boot.ChashProperties}).
 */
package io.github.chash.spring.boot;
