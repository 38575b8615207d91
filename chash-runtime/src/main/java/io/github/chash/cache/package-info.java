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
 * node. A cache call builds it once, as a {@link io.github.chash.ring.RoutingKey} made from the
 * cache's prefix and the key's form ({@link io.github.chash.cache.CanonicalKeys#routingKey}), and
 * hands that through the whole operation: the ring hashes its bytes, a local node keeps its entries
 * under it (so a local hit builds no string), a remote node writes its text. A backend failure
 * never reaches a caller: it is a miss, counted, and {@code failureLimit} consecutive failures
 * eject the node from the live ring until a probe readmits it. Node types other than {@code local}
 * plug in through {@link io.github.chash.cache.CacheNodeFactory} and {@link
 * java.util.ServiceLoader}, so this package never depends on a client library.
 *
 * <p>Consistency: a read returns the last write completed before it began, or a miss. Within one
 * JVM on every path; across the JVMs of a fleet, on nodes with conditional calls ({@link
 * io.github.chash.cache.CacheNode#conditional()}: Redis, memcached), through a membership change
 * rolled out to them one by one within the migration window, by these rules, with the servers as
 * the only shared medium: a read of a moved key reads its target and its previous owners at once
 * and the oldest ring's owner holding anything wins (only JVMs still on that ring write there);
 * what won is moved by a compare-and-set on the target and a compare-and-delete on the previous
 * owner; a load fills only over the lease it stored before running ({@link
 * io.github.chash.cache.Marker}); an evict at the owner leaves a tombstone for the window; fills
 * and moves never delete on a previous owner in its window; a sweep deletes a leftover's home copy
 * first. The operations guide states the protocol rule by rule, and what stays per JVM.
 *
 * <p>Where things are: a key is built in {@link io.github.chash.cache.CanonicalKeys#routingKey}
 * (reached through {@code InterceptedCache.key}, which the aspect and the Spring cache call); the
 * protocol lives in {@code RoutedCache} and the classes it hands a call to ({@code Reads}, {@code
 * Writes}, {@code Loads}, {@code Migration}, {@code Router}, {@code Membership}, {@code
 * FailurePolicy}); a cache call's read or write on a node is made in {@code NodeCalls}, which keeps
 * its accounting; the nodes themselves are {@link io.github.chash.cache.LocalCacheNode} here and
 * the {@code chash-redis} and {@code chash-memcached} artifacts (on the remote-node base of {@code
 * io.github.chash.internal.node}), or a jar of one's own.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.cache;
