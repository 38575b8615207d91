package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.EvictionDuringChangeScenario;
import io.github.chash.cache.LoopbackFleet;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link EvictionDuringChangeScenario} on real memcached servers at their memory limit (lowered
 * with {@code cache_memlimit}, then junk of the chash items' slab class written past it). Before
 * the vouch rule: 565 and 580 of 812 moved keys read stale with {@code -m 2} (issue 40); with the
 * rule off, 400-716 of 763 in each of 5 runs.
 */
class MemcachedEvictionDuringChangeIT extends EvictionDuringChangeScenario {
  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(4);

  @Override
  protected LoopbackFleet<?> fleet() {
    return fleet;
  }

  /**
   * Lowers the server's memory limit to 8 MB (the least memcached takes) and writes junk of the
   * size of its chash items in steps until it has evicted at least 500 items of their slab class,
   * then lifts the limit.
   */
  @Override
  protected long evictUnderMemoryPressure(String nodeId) {
    MemcachedServerProcess server = fleet.server(nodeId);
    byte[] sample = null;
    String sampleKey = null;
    for (int k = 0; sample == null && k < 3_000; k++) {
      sampleKey = "chash:users:k" + k;
      sample = server.getBytes(sampleKey);
    }
    assertThat(sample).as("a chash item on port %d", server.port()).isNotNull();
    long before = server.stat("evictions");
    assertThat(server.line("cache_memlimit 8")).isEqualTo("OK");
    // the pages the class already holds decide how much junk it takes
    for (int step = 0; step < 200 && server.stat("evictions") - before < 500; step++) {
      server.fillWithJunk(step, 500, sampleKey.length(), sample.length);
    }
    assertThat(server.line("cache_memlimit 64")).isEqualTo("OK");
    return server.stat("evictions") - before;
  }
}
