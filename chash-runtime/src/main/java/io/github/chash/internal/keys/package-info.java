/**
 * Internal: the key-expression grammar shared by the aspect (which compiles expressions at run
 * time) and the Maven plugin (which checks them at build time), so both accept the same text and
 * report the same errors at the same positions; and the bytes of a routing key ({@link
 * io.github.chash.internal.keys.KeyBytes}), shared by the ring and remote nodes. Public only so
 * other packages and modules can reach them; not part of the API, they may change in any release.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.internal.keys;
