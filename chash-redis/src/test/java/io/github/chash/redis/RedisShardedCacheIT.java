package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three Redis servers behind one sharded cache, built from chash.yaml text (service-loaded
 * factory).
 */
class RedisShardedCacheIT {
  @RegisterExtension static final RedisFleet fleet = RedisFleet.of(3);

  private static ShardedCacheManager manager() {
    return fleet.manager("{ failureLimit: 3, retryAfter: 1s, timeout: 1s, onRejoin: flush }");
  }

  @Test
  void put_keysLandOnTheServerTheRingNames() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      Map<String, Integer> perNode = new HashMap<>();
      for (int i = 0; i < 600; i++) {
        String key = users.routingKey("user-" + i, "test");
        users.put(key, "name-" + i);
        String owner = manager.ring().locate(key).id();
        perNode.merge(owner, 1, Integer::sum);
        for (String id : fleet.nodeIds()) {
          boolean stored = fleet.server(id).command("EXISTS", "chash:" + key).equals(1L);
          assertThat(stored).as("%s on %s (owner %s)", key, id, owner).isEqualTo(id.equals(owner));
        }
      }
      // every server holds exactly the keys the ring gives it, and each gets a share
      for (String id : fleet.nodeIds()) {
        assertThat(fleet.server(id).keys("chash:*"))
            .hasSize(perNode.get(id))
            .hasSizeGreaterThan(100);
      }
    }
  }

  /**
   * A miss takes a lease before its load (issue 30). A load that throws, returns an uncached null,
   * or whose future fails gives the lease back at once: the next miss of the key loads and is
   * cached, instead of every load going uncached until the lease's 10 s pass.
   */
  @Test
  void loadThatFails_givesItsLeaseBack_theNextLoadIsCached() throws Throwable {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      AtomicInteger loads = new AtomicInteger();
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        String key = users.routingKey("failing-" + i, "test");
        keys.add(key);
        switch (i % 3) {
          case 0 ->
              assertThatThrownBy(
                      () ->
                          users.get(
                              key,
                              ValueType.OBJECT,
                              () -> {
                                throw new IllegalStateException("database down");
                              },
                              false,
                              false))
                  .hasMessage("database down");
          case 1 -> {
            Object loaded = users.get(key, ValueType.OBJECT, () -> null, false, false);
            assertThat(loaded).as("a null load, not cached").isNull();
          }
          default -> {
            CompletionStage<Object> failed =
                users.loadFuture(
                    key,
                    ValueType.OBJECT,
                    () -> CompletableFuture.failedFuture(new IllegalStateException("down")),
                    false,
                    value -> true);
            assertThat(failed.toCompletableFuture()).isCompletedExceptionally();
          }
        }
      }
      for (String key : keys) {
        users.get(key, ValueType.OBJECT, () -> "v" + loads.incrementAndGet(), false, false);
      }
      int cached = 0;
      for (String key : keys) {
        cached += users.getIfPresent(key, ValueType.OBJECT) != null ? 1 : 0;
      }
      System.out.printf(
          "%n=== leases of failed loads: %d keys, %d loads after the failures, %d cached%n",
          keys.size(), loads.get(), cached);
      assertThat(loads).hasValue(keys.size());
      assertThat(cached).as("keys cached by the load after a failed one").isEqualTo(keys.size());
    }
  }

  @Test
  void get_loadsOnceThenHitsAcrossNodes() throws Throwable {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      AtomicInteger loads = new AtomicInteger();
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 100; i++) {
          String key = users.routingKey(i, "test");
          int n = i;
          List<String> value =
              users.get(
                  key,
                  ValueType.OBJECT,
                  () -> {
                    loads.incrementAndGet();
                    return List.of("v", Integer.toString(n));
                  },
                  false,
                  false);
          assertThat(value).containsExactly("v", Integer.toString(i));
        }
      }
      assertThat(loads).hasValue(100);
      assertThat(users.stats().hitCount()).isEqualTo(100);
      assertThat(manager.nodeStats().values().stream().mapToLong(s -> s.hitCount()).sum())
          .isEqualTo(100);
      assertThat(manager.nodeStats().values()).allSatisfy(s -> assertThat(s.errorCount()).isZero());
    }
  }

  @Test
  void evict_leavesOnlyATombstoneForTheWindowOnTheServer() {
    try (ShardedCacheManager manager = manager()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String key = users.routingKey("gone", "test");
      users.put(key, "x");
      String owner = manager.ring().locate(key).id();
      assertThat(fleet.server(owner).keys("chash:*")).containsExactly("chash:" + key);

      users.evict(key);

      // the value is gone; a tombstone tells JVMs on a newer ring that their copy is older
      byte[] left = fleet.server(owner).getEntry("chash:" + key);
      assertThat(io.github.chash.internal.codec.MarkerBytes.decode(left))
          .extracting(io.github.chash.cache.Marker::kind)
          .isEqualTo(io.github.chash.cache.Marker.Kind.TOMBSTONE);
      assertThat((Long) fleet.server(owner).command("PTTL", "chash:" + key))
          .as("lives at most the migration window (5 minutes by default)")
          .isBetween(1L, 300_000L);
      assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
    }
  }
}
