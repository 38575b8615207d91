package io.github.chash.config;

import java.time.Duration;

/**
 * One entry of {@code caches:}.
 *
 * @param name the cache name used by the annotations
 * @param ttl time to live of each entry; null means no expiry
 */
public record CacheConfig(String name, Duration ttl) {}
