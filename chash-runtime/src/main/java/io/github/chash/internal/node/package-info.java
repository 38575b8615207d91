/**
 * Internal: what the remote cache nodes (Redis, memcached) share about their connections. Not
 * exported; may change in any release.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("or null for"); a null anywhere else is a caller's bug and fails with {@link
 * java.lang.NullPointerException}.
 */
package io.github.chash.internal.node;
