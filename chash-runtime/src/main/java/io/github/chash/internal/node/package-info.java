/**
 * Internal: what the remote cache nodes (Redis, memcached) share, apart from their protocols: the
 * node base ({@link io.github.chash.internal.node.RemoteNode}) with its connections' life cycle,
 * call deadlines ({@link io.github.chash.internal.node.ClientStalls}) and failures, and what their
 * factories read alike ({@link io.github.chash.internal.node.RemoteNodeFactories}). Names no client
 * library, so the protocol packages can move to artifacts of their own that depend on this one. Not
 * exported; may change in any release.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("or null for"); a null anywhere else is a caller's bug and fails with {@link
 * java.lang.NullPointerException}.
 */
package io.github.chash.internal.node;
