package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A near cache over three real memcached servers, which report no changes: refused by default, and
 * with {@code invalidation: ttl} another JVM's write reaches it only when the entry's {@code
 * near.ttl} has passed, while this JVM's own writes drop it at once.
 */
class MemcachedNearCacheIT {
  private static final ValueType STRING = ValueType.of(String.class);
  private static final String FAILOVER = "{ failureLimit: 3, retryAfter: 1s, timeout: 1s }";

  @RegisterExtension static final MemcachedFleet fleet = MemcachedFleet.of(3);

  @Test
  void nearCacheRelyingOnTheServers_refusedAtStartup_withWhereItWasWritten() {
    assertThatThrownBy(
            () ->
                fleet.managerWithUsers(
                    FAILOVER, "{ ttl: 10m, near: { maximumSize: 100, ttl: 1s } }"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("chash.yaml:")
        .hasMessageContaining(
            ": caches.users.near needs every node to report changes of its keys (Redis 6 or"
                + " later), but node \"m");
  }

  @Test
  void ttlInvalidation_anotherJvmsWriteSeenOnlyOnceTheNearTtlPassed_ownWritesAtOnce() {
    try (ShardedCacheManager jvmA = fleet.manager(FAILOVER);
        ShardedCacheManager jvmB =
            fleet.managerWithUsers(
                FAILOVER,
                "{ ttl: 10m, near: { maximumSize: 100, ttl: 300ms, invalidation: ttl } }")) {
      InterceptedCache a = InterceptedCache.of(jvmA.cache("users"));
      InterceptedCache b = InterceptedCache.of(jvmB.cache("users"));
      String key = a.routingKey(42, "test");
      a.put(key, "v1");
      assertThat(b.getIfPresent(key, STRING)).isEqualTo("v1");
      long hits = b.stats().nearHitCount();

      a.put(key, "v2");
      long written = System.nanoTime();
      Object first = b.getIfPresent(key, STRING);
      long nearHitsOfV1 = 0;
      Object got = first;
      while (!"v2".equals(got)) {
        nearHitsOfV1++;
        assertThat(System.nanoTime() - written)
            .as("v2 never reached B")
            .isLessThan(10_000_000_000L);
        got = b.getIfPresent(key, STRING);
      }
      long seenAfterNanos = System.nanoTime() - written;
      b.put(key, "v3");
      Object own = b.getIfPresent(key, STRING);
      System.out.printf(
          "%n=== memcached near cache, invalidation: ttl, near.ttl 300 ms: B read v1 %d times"
              + " after A wrote v2, then v2 %.1f ms after A's put returned%n",
          nearHitsOfV1, seenAfterNanos / 1e6);

      assertThat(first).as("nothing reported A's write: B's near entry served").isEqualTo("v1");
      assertThat(b.stats().nearHitCount()).isGreaterThan(hits);
      assertThat(own).as("B's own write: its entry dropped at once").isEqualTo("v3");
    }
  }
}
