/**
 * JMH benchmarks and measurement reports of chash against its peers.
 *
 * <p>Each area has its own subpackage ({@code ring} now; cache and Redis benchmarks later), so a
 * JMH include pattern such as {@code io.github.chash.benchmarks.ring} selects one area. Nothing
 * here is on a runtime class path.
 */
package io.github.chash.benchmarks;
