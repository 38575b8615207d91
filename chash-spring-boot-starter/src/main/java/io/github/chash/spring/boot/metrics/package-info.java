/**
 * Micrometer meters of chash: the standard {@code cache.*} meters per cache and {@code
 * chash.node.*} per node ({@link
 * io.github.chash.spring.boot.metrics.ChashMetricsAutoConfiguration}).
 */
package io.github.chash.spring.boot.metrics;
