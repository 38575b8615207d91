/**
 * Membership sources: where a running manager learns its nodes from, when that is not (only) a
 * file. A {@link io.github.chash.membership.MembershipSource} (ZooKeeper, etcd, Kubernetes
 * EndpointSlices, each in its own artifact, or a file) delivers {@link
 * io.github.chash.membership.RingUpdate}s, each stamped with a monotonic epoch taken from the
 * source's own revision; a {@link io.github.chash.membership.MembershipFollower} applies them to a
 * {@link io.github.chash.cache.ShardedCacheManager} through its {@code reconfigure}, never an older
 * one, keeps the last good ring while the source is unreachable or sends bad data, and reports its
 * {@link io.github.chash.membership.MembershipStatus} (the epoch applied, the source's state,
 * whether this JVM is behind) to health checks and metrics.
 */
package io.github.chash.membership;
