/**
 * The sharded cache: named caches whose entries are spread over {@link
 * io.github.chash.cache.CacheNode nodes} (local Caffeine shards or remote servers) by a consistent
 * hashing ring.
 *
 * <p>Entry points: {@link io.github.chash.cache.ShardedCaches} builds a {@link
 * io.github.chash.cache.ShardedCacheManager} from a {@code chash.yaml} model or a builder; {@link
 * io.github.chash.cache.ShardedCacheManager#cache(String)} returns the {@link
 * io.github.chash.cache.ShardedCache} handle callers keep; {@link
 * io.github.chash.cache.CanonicalKeys} turns key objects into strings that every JVM agrees on.
 *
 * <p>The routing key of an entry is {@code cacheName + ":" + canonicalKey}; the ring maps it to a
 * node. A backend failure never reaches a caller: it is a miss, counted, and {@code failureLimit}
 * consecutive failures eject the node from the live ring until a probe readmits it. Node types
 * other than {@code local} plug in through {@link io.github.chash.cache.CacheNodeFactory} and
 * {@link java.util.ServiceLoader}, so this package never depends on a client library.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.cache;
