/**
 * Internal: the value codecs the remote nodes share (Redis and memcached): {@link
 * io.github.chash.internal.codec.JdkSerializationCodec}, serialization behind an allow-list, and
 * {@link io.github.chash.internal.codec.JacksonCodec}, JSON to the caller's exact type. Public only
 * so the node packages can reach them; not part of the API, they may change in any release.
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so;
 * a null anywhere else is a caller's bug and fails with {@link java.lang.NullPointerException}.
 */
package io.github.chash.internal.codec;
