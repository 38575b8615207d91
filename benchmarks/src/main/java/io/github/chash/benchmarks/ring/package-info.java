/**
 * Ring benchmarks: key-to-node lookup ({@link
 * io.github.chash.benchmarks.ring.RingLookupBenchmark}), build time ({@link
 * io.github.chash.benchmarks.ring.RingBuildBenchmark}), memory per virtual point ({@link
 * io.github.chash.benchmarks.ring.MemoryReport}) and balance/movement ({@link
 * io.github.chash.benchmarks.ring.QualityReport}), each chash algorithm side by side with
 * spymemcached's {@code KetamaNodeLocator}, Guava's {@code Hashing.consistentHash}, hash4j's
 * JumpBackHash and the seed articles' {@code TreeMap} ring.
 */
package io.github.chash.benchmarks.ring;
