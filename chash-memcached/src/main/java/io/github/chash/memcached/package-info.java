/**
 * Memcached nodes ({@code type: memcached}) on XMemcached: {@link
 * io.github.chash.memcached.MemcachedCacheNodeFactory}, service-loaded, so an application with
 * local shards only never loads XMemcached.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.memcached;
