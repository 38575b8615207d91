/**
 * Internal: the text forms the configuration and the nodes share, so they read them the same way:
 * durations ({@link io.github.chash.internal.text.Durations}), {@code ${env:NAME}} placeholders
 * ({@link io.github.chash.internal.text.Placeholders}) and the parts of a Redis URI ({@link
 * io.github.chash.internal.text.RedisUriParts}). Public only so other packages of the runtime can
 * reach them; the module exports this package to chash's own modules only, it may change in any
 * release.
 *
 * <p>Null policy: no method accepts or returns {@code null} unless its documentation says so.
 */
package io.github.chash.internal.text;
