/**
 * Micrometer meters of chash: the standard {@code cache.*} meters per cache and {@code
 * chash.node.*} per node ({@link
 * io.github.chash.spring.boot.metrics.ChashMetricsAutoConfiguration}).
 *
 * <p>Nulls: no parameter or return value of this package is null unless its documentation says so
 * ("null for no expiry", "or null on a miss"); a null anywhere else is a caller's bug and fails
 * with {@link java.lang.NullPointerException}.
 */
package io.github.chash.spring.boot.metrics;
