package io.github.chash.redis;

import io.github.chash.cache.EvictionDuringChangeScenario;
import io.github.chash.cache.LoopbackFleet;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link EvictionDuringChangeScenario} on real Redis servers bounded by {@code maxmemory} with
 * {@code allkeys-lru}, as the docs tell users to run them. Before the vouch rule: 787-802 of 812
 * moved keys read stale (issue 40); with the rule off, 271-310 of 745 in each of 5 runs.
 */
class RedisEvictionDuringChangeIT extends EvictionDuringChangeScenario {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(4);

  @Override
  protected LoopbackFleet<?> fleet() {
    return fleet;
  }

  /**
   * Bounds the server's memory a little above what it uses and writes junk past the bound with
   * {@code allkeys-lru}, then lifts the bound.
   */
  @Override
  protected long evictUnderMemoryPressure(String nodeId) {
    RedisServerProcess server = fleet.server(nodeId);
    long used = infoField(server, "memory", "used_memory");
    long before = infoField(server, "stats", "evicted_keys");
    server.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
    server.command("CONFIG", "SET", "maxmemory", Long.toString(used + 512 * 1024));
    for (int batch = 0; batch < 6; batch++) {
      server.command(
          "EVAL",
          "for i = 1, 500 do redis.call('SET', 'junk:' .. ARGV[1] .. ':' .. i, string.rep('x', 200))"
              + " end return 1",
          "0",
          Integer.toString(batch));
    }
    server.command("CONFIG", "SET", "maxmemory", "0");
    return infoField(server, "stats", "evicted_keys") - before;
  }

  private static long infoField(RedisServerProcess server, String section, String field) {
    for (String line : ((String) server.command("INFO", section)).split("\r\n")) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.substring(field.length() + 1).trim());
      }
    }
    throw new IllegalStateException("INFO " + section + " has no " + field);
  }
}
