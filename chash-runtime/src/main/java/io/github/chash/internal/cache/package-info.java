/**
 * Internal: the sharded cache as chash's interceptors call it ({@link
 * io.github.chash.internal.cache.InterceptedCache}): routing keys, stored forms (a cached null is
 * {@link io.github.chash.internal.cache.NullValue#INSTANCE}), {@code sync} loads and the loaders
 * they run. Exported to chash's aspect, Spring Boot starter and memcached node (whose peer
 * transcoder refuses the cached-null marker) only; may change in any release.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("or null on a miss"); a null anywhere else is a caller's bug and fails with {@link
 * java.lang.NullPointerException}.
 */
package io.github.chash.internal.cache;
