/**
 * chash's ring alone: hash functions, the six placement algorithms, weights and preference lists,
 * with no cache and no dependency but hash4j. The sharded cache ({@code io.github.chash.runtime})
 * builds on it.
 */
module io.github.chash.ring {
  requires com.dynatrace.hash4j;

  exports io.github.chash.ring;
}
