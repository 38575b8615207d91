package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fleet simulation seed 1076068417 on real servers (issue 41): two changes close together, A = [r1,
 * r2, r3] to B = A + r4 to C = B + r5, reach JVM "skipper" as one, while JVM "follower" takes both.
 * A key that A places on some node, B on r4 and C on r5: the follower fills it on r4 while on B;
 * the skipper, on C, puts a newer value. The file names both replaced rings ({@code
 * migration.replaces}), so the skipper changes through B first and its put deletes the follower's
 * older fill on r4: the follower reads the put. Jumping from A to C (the rule removed), the put
 * leaves r4's older copy, which the follower ranks as an older ring's newer write. Here the
 * skipper's vouch on A's owner names r5, not r4, so the follower's read is a miss of the newer put
 * rather than the stale read the simulation found, where A's ring was already settled for the
 * reader: the test fails either way.
 */
class RedisSkippedChangeIT {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(5);

  private static final List<String> A = List.of("r1", "r2", "r3");
  private static final List<String> B = List.of("r1", "r2", "r3", "r4");
  private static final List<String> C = List.of("r1", "r2", "r3", "r4", "r5");

  private static ChashConfig config(List<String> ids, String replaces) {
    return ChashConfigs.parse(
        fleet.nodesYaml(ids)
            + "caches:\n  users: { ttl: 10m }\n"
            + "migration:\n  window: 1m\n"
            + replaces,
        "chash.yaml");
  }

  @Test
  void aJvmThatMissedAChange_deletesWhereThatChangesRingPlacedTheKey_soItsPutIsRead()
      throws Throwable {
    Instant since = Instant.now();
    ChashConfig a = config(A, "");
    ChashConfig b = config(B, "  replaces: { since: " + since + ", nodes: [r1, r2, r3] }\n");
    ChashConfig c =
        config(
            C,
            "  replaces:\n"
                + "    - { since: "
                + since.plusSeconds(1)
                + ", nodes: [r1, r2, r3, r4] }\n"
                + "    - { since: "
                + since
                + ", nodes: [r1, r2, r3] }\n");
    try (ShardedCacheManager follower = RedisFleet.connected(ShardedCaches.create(a));
        ShardedCacheManager skipper = RedisFleet.connected(ShardedCaches.create(a))) {
      InterceptedCache followerUsers = InterceptedCache.of(follower.cache("users"));
      InterceptedCache skipperUsers = InterceptedCache.of(skipper.cache("users"));
      String key = movedToR4ThenR5(followerUsers, a, b, c);

      follower.reconfigure(b);
      assertThat(load(followerUsers, key, "v1")).isEqualTo("v1"); // filled on r4
      follower.reconfigure(c);
      skipper.reconfigure(c); // missed B
      skipperUsers.put(key, "v2");

      assertThat(followerUsers.getIfPresent(key, ValueType.OBJECT))
          .as("the follower's read of %s after the skipper's put", key)
          .isEqualTo("v2");
      assertThat(load(followerUsers, key, "loaded again")).isEqualTo("v2");
    }
  }

  /** A routing key that A places off r4 and r5, B on r4 and C on r5. */
  private static String movedToR4ThenR5(
      InterceptedCache cache, ChashConfig a, ChashConfig b, ChashConfig c) {
    for (int i = 0; i < 100_000; i++) {
      String key = cache.routingKey("key-" + i, "test");
      if (!List.of("r4", "r5").contains(RedisFleet.owner(a, key))
          && RedisFleet.owner(b, key).equals("r4")
          && RedisFleet.owner(c, key).equals("r5")) {
        return key;
      }
    }
    throw new AssertionError("no key moves from A to r4 and then to r5 among 100,000");
  }

  private static Object load(InterceptedCache cache, String key, String loaded) throws Throwable {
    return cache.get(key, ValueType.OBJECT, () -> loaded, true, false);
  }
}
