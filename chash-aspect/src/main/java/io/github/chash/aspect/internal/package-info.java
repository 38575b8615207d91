/**
 * Internals of the aspect: key expression compiler, per-method invocation plans and manager lookup.
 * Not an API: anything here may change without notice.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.aspect.internal;
