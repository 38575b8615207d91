package io.github.chash.spring.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The health contributor's reason for an ejected node, which names the rules that ejected it. */
class ChashHealthTest {
  private static final FailoverConfig FAILOVER =
      new FailoverConfig(1, Duration.ofHours(1), Duration.ofMillis(100), OnRejoin.FLUSH)
          .withPromotionWait(Duration.ofMillis(1));

  @Test
  void ejectedSentinelShard_reasonNamesPromotionWait_aPlainNodeOnlyTheFailureLimit() {
    assertThat(reasonForDownNode(true))
        .startsWith(
            "failed 1 operations in a row for PT0.001S or longer (failover.failureLimit,"
                + " failover.promotionWait); probed again every PT1H");
    assertThat(reasonForDownNode(false))
        .startsWith("failed 1 operations in a row (failover.failureLimit); probed again every");
  }

  /** Node "down" fails every call; {@code promotes}: it says it is a Sentinel shard. */
  private static String reasonForDownNode(boolean promotes) {
    CacheNode down = new DownNode(promotes);
    try (ShardedCacheManager manager =
        ShardedCaches.builder()
            .failover(FAILOVER)
            .node(down, 1)
            .node(CacheNodes.local("up", 100), 1)
            .cache("users", Duration.ofMinutes(10))
            .build()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      String key = null;
      for (int i = 0; key == null; i++) {
        String k = users.routingKey(i, "test");
        if (manager.ring().locate(k).id().equals("down")) {
          key = k;
        }
      }
      // each call fails at once; the shard's failures outlast the 1 ms wait within a few calls
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (manager.liveRing().size() == 2 && System.nanoTime() < deadline) {
        users.getIfPresent(key, ValueType.OBJECT);
      }
      ChashHealth health = ChashHealth.of(manager, FAILOVER, Map.of(), null, null);
      Map<?, ?> ejected = (Map<?, ?>) health.details().get("ejected");
      return (String) ((Map<?, ?>) ejected.get("down")).get("reason");
    }
  }

  /** A node whose server is gone. */
  private static final class DownNode implements CacheNode {
    private final CacheNode local = CacheNodes.local("down", 100);
    private final boolean promotes;

    DownNode(boolean promotes) {
      this.promotes = promotes;
    }

    private CacheNodeException gone() {
      return new CacheNodeException("down", "connection refused", new java.net.ConnectException());
    }

    @Override
    public String id() {
      return "down";
    }

    @Override
    public boolean promotesReplica() {
      return promotes;
    }

    @Override
    public Object get(String key, ValueType type) {
      throw gone();
    }

    @Override
    public void put(String key, Object value, Duration ttl) {
      throw gone();
    }

    @Override
    public void evict(String key) {
      throw gone();
    }

    @Override
    public void clear() {
      throw gone();
    }

    @Override
    public void ping() {
      throw gone();
    }

    @Override
    public long estimatedSize() {
      return local.estimatedSize();
    }

    @Override
    public void close() {
      local.close();
    }
  }
}
