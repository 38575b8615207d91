/**
 * Consistent hashing: maps keys to nodes so that adding or removing a node moves few keys.
 *
 * <p>Start from {@link io.github.chash.ring.RingSettings} (algorithm, {@link
 * io.github.chash.ring.HashFunction hash function}, virtual points) and build an immutable {@link
 * io.github.chash.ring.Ring} snapshot with {@link io.github.chash.ring.Rings#create}, or keep a
 * mutable, thread-safe {@link io.github.chash.ring.ConsistentHash} that swaps snapshots atomically.
 * The algorithms are listed in {@link io.github.chash.ring.Algorithm}; the hash functions in {@link
 * io.github.chash.ring.HashFunctions}. A ring places any {@code CharSequence}; a {@link
 * io.github.chash.ring.RoutingKey} holds its bytes already (the one encoding of keys: UTF-8, with
 * WTF-8's bytes for an unpaired surrogate), which the hash functions over UTF-8 read in place.
 *
 * <p>Placement depends only on the node set and the settings, never on the order of changes (for
 * {@code jump} and {@code jedis}, also on the nodes' list order), so every JVM with the same
 * configuration routes every key the same way. Nothing here knows about files, caches or servers.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.ring;
