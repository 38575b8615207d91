package io.github.chash.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The cache and node meters, read from a registry as a dashboard reads them. */
class ChashMeterBinderTest {
  private final ShardedCacheManager manager =
      ShardedCaches.builder()
          .node(CacheNodes.local("a", 100), 1)
          .node(CacheNodes.local("b", 100), 2)
          .cache("users", null)
          .build();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @AfterEach
  void close() {
    manager.close();
  }

  private double counter(String name, String... tags) {
    return registry.get(name).tags(tags).functionCounter().count();
  }

  @Test
  void cacheMeters_haveMicrometersStandardNamesAndTags() throws Throwable {
    new ChashMeterBinder(manager, "cacheManager").bindTo(registry);
    InterceptedCache users = InterceptedCache.of(manager.cache("users"));
    users.getIfPresent("users:1", ValueType.OBJECT); // miss
    users.get("users:1", ValueType.OBJECT, () -> "one", false, false); // miss, load, put
    users.getIfPresent("users:1", ValueType.OBJECT); // hit
    users.put("users:2", "two");
    users.evict("users:2");
    String[] cache = {"cache", "users", "cache.manager", "cacheManager"};
    assertThat(counter("cache.gets", concat(cache, "result", "hit"))).isEqualTo(1);
    assertThat(counter("cache.gets", concat(cache, "result", "miss"))).isEqualTo(2);
    assertThat(counter("cache.puts", cache)).isEqualTo(2);
    // explicit evictions are removals, as Spring Boot's Redis cache meters name them; a dashboard
    // built for Caffeine reads cache.evictions as size or expiry evictions, which chash cannot see
    assertThat(counter("cache.removals", cache)).isEqualTo(1);
    assertThat(registry.find("cache.evictions").meters()).isEmpty();
    assertThat(counter("cache.load", concat(cache, "result", "success"))).isEqualTo(1);
    assertThat(counter("cache.load", concat(cache, "result", "failure"))).isZero();
    assertThat(counter("chash.cache.refused", cache)).isZero();
    assertThat(registry.find("cache.size").meters()).isEmpty();
    for (String protocol :
        new String[] {
          "chash.cache.migration.hits",
          "chash.cache.migration.copies",
          "chash.cache.leftover.deletions",
          "chash.cache.fences",
          "chash.cache.leases",
          "chash.cache.leases.lost",
          "chash.cache.lease.waits.served",
          "chash.cache.lease.waits.expired",
          "chash.cache.tombstones",
          "chash.cache.safety.misses",
          "chash.cache.near.hits"
        }) {
      assertThat(counter(protocol, cache)).as(protocol).isZero();
    }
    // one description for both results, true of each
    assertThat(registry.find("cache.load").meters())
        .hasSize(2)
        .allSatisfy(
            m ->
                assertThat(m.getId().getDescription())
                    .contains("result=success when it returned")
                    .contains("result=failure when it threw"));
  }

  @Test
  void nodeMeters_areTaggedByNode() {
    new ChashMeterBinder(manager, "chash").bindTo(registry);
    for (String node : new String[] {"a", "b"}) {
      assertThat(registry.get("chash.node.live").tag("node", node).gauge().value()).isEqualTo(1);
      assertThat(counter("chash.node.errors", "node", node)).isZero();
      assertThat(counter("chash.node.ejections", "node", node)).isZero();
      // local shards have no replicas
      assertThat(counter("chash.node.replica.reads", "node", node)).isZero();
      assertThat(counter("chash.node.readmissions", "node", node)).isZero();
      assertThat(counter("chash.node.invalidations", "node", node)).isZero();
      assertThat(counter("chash.node.invalidations.lost", "node", node)).isZero();
    }
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
