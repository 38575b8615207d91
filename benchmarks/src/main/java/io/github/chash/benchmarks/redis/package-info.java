/**
 * Gets and puts through chash's sharded cache to local Redis servers, against plain Lettuce to the
 * same servers. JMH include pattern: {@code io.github.chash.benchmarks.redis}.
 */
package io.github.chash.benchmarks.redis;
