package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.LoopbackFleet;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.TypedCache;
import io.github.chash.config.ChashConfigs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * TTL jitter on three real servers: 100,000 entries written with one {@code putAll}, their expiry
 * times read back from the servers ({@code PTTL}), and the most that expire within any one second.
 */
class RedisJitterIT {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  private static final int ENTRIES = 100_000;
  private static final long TEN_MINUTES = 600_000;

  /** Every key's PTTL on one server, read in one script call: its own server, so KEYS is fine. */
  private static final String PTTLS =
      "local r = {} for _, k in ipairs(redis.call('KEYS', ARGV[1])) do"
          + " r[#r + 1] = redis.call('PTTL', k) end return r";

  /** What one run measured. */
  record Spread(int keys, long minTtl, long maxTtl, int largestSecond, long writeMillis) {
    double largestShare() {
      return (double) largestSecond / keys;
    }
  }

  private static Spread writeAndMeasure(String cacheSettings) {
    String yaml =
        fleet.nodesYaml() + "caches:\n  users: " + cacheSettings + "\nfailover: { timeout: 10s }\n";
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")))) {
      TypedCache<Long, String> users = manager.cache("users").typed(Long.class, String.class);
      Map<Long, String> values = new LinkedHashMap<>();
      for (long id = 0; id < ENTRIES; id++) {
        values.put(id, "user " + id);
      }
      long started = System.nanoTime();
      users.putAll(values);
      long writeMillis = (System.nanoTime() - started) / 1_000_000;

      // each key's expiry on one time line: the moment its server was read plus its PTTL
      List<Long> expiries = new ArrayList<>(ENTRIES);
      long minTtl = Long.MAX_VALUE;
      long maxTtl = Long.MIN_VALUE;
      for (String id : fleet.nodeIds()) {
        long readAt = System.currentTimeMillis();
        List<?> pttls = (List<?>) fleet.server(id).command("EVAL", PTTLS, "0", "chash:users:*");
        for (Object pttl : pttls) {
          long ms = (Long) pttl;
          minTtl = Math.min(minTtl, ms);
          maxTtl = Math.max(maxTtl, ms);
          expiries.add(readAt + ms);
        }
      }
      return new Spread(expiries.size(), minTtl, maxTtl, largestInAnySecond(expiries), writeMillis);
    }
  }

  /** The most expiry times within any window of 1000 ms (a sliding window, not clock seconds). */
  private static int largestInAnySecond(List<Long> expiries) {
    long[] sorted = expiries.stream().mapToLong(Long::longValue).sorted().toArray();
    int most = 0;
    int from = 0;
    for (int to = 0; to < sorted.length; to++) {
      while (sorted[to] - sorted[from] >= 1000) {
        from++;
      }
      most = Math.max(most, to - from + 1);
    }
    return most;
  }

  private static void print(String what, Spread s) {
    System.out.printf(
        "%s: %,d keys written by one putAll in %,d ms; PTTL %,d..%,d ms; the most expiring within"
            + " one second: %,d (%.2f%%)%n",
        what, s.keys, s.writeMillis, s.minTtl, s.maxTtl, s.largestSecond, 100 * s.largestShare());
  }

  @Test
  void putAll_jitterTenPercent_noSecondHoldsMoreThanThreePercent() {
    Spread plain = writeAndMeasure("{ ttl: 10m }");
    print("ttl: 10m", plain);
    fleet.reset();
    Spread jittered = writeAndMeasure("{ ttl: 10m, jitter: 10% }");
    print("ttl: 10m, jitter: 10%", jittered);

    assertThat(plain.keys).isEqualTo(ENTRIES);
    assertThat(jittered.keys).isEqualTo(ENTRIES);
    // without jitter every entry got the whole ttl: they expire within the time the writes took
    assertThat(plain.minTtl).isGreaterThan(TEN_MINUTES - plain.writeMillis - 60_000);
    // with it: never longer than the ttl, spread over its last 10%
    assertThat(jittered.maxTtl).isLessThanOrEqualTo(TEN_MINUTES);
    assertThat(jittered.minTtl).isLessThan(TEN_MINUTES * 91 / 100);
    assertThat(jittered.minTtl).isGreaterThan(TEN_MINUTES * 9 / 10 - jittered.writeMillis - 60_000);
    assertThat(jittered.largestShare()).isLessThanOrEqualTo(0.03);
  }

  /** One entry: a plain put takes the jittered TTL too. */
  @Test
  void put_jitterTakesOffARandomPartNeverAddsOne() {
    String yaml =
        fleet.nodesYaml() + "caches:\n  users: { ttl: 100s, jitter: 50% }\nfailover: {}\n";
    try (ShardedCacheManager manager =
        LoopbackFleet.connected(ShardedCaches.create(ChashConfigs.parse(yaml, "chash.yaml")))) {
      TypedCache<Long, String> users = manager.cache("users").typed(Long.class, String.class);
      TreeMap<Long, Integer> ttls = new TreeMap<>();
      List<Long> all = new ArrayList<>();
      for (long id = 0; id < 200; id++) {
        users.put(id, "v");
      }
      for (String id : fleet.nodeIds()) {
        for (Object pttl :
            (List<?>) fleet.server(id).command("EVAL", PTTLS, "0", "chash:users:*")) {
          all.add((Long) pttl);
          ttls.merge((Long) pttl / 10_000, 1, Integer::sum); // tens of seconds
        }
      }
      // 200 TTLs uniform in (50s, 100s]: all five 10-second bands are used, none above 100s
      assertThat(all).hasSize(200);
      assertThat(ttls.keySet()).contains(5L, 6L, 7L, 8L, 9L);
      assertThat(all).allSatisfy(ttl -> assertThat(ttl).isBetween(45_000L, 100_000L));
    }
  }
}
