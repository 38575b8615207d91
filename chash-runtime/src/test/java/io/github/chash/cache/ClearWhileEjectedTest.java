package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.FailoverConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Node;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cache cleared while one of its nodes is ejected with {@code onRejoin: keep}: the node keeps its
 * entries, so the clear must reach it before it serves again, even when the clear comes while the
 * node's probe is under way (found by the protocol simulation, seed 3882762663). The clear is run
 * from inside the probe's own node calls ({@link FaultyNode#onceBefore}), so each interleaving is
 * exact and no thread is needed.
 */
class ClearWhileEjectedTest {
  private static final Duration RETRY_AFTER = Duration.ofSeconds(30);

  private final FakeTicker ticker = new FakeTicker();
  private final Map<String, FaultyNode> nodes = new LinkedHashMap<>();
  private RingCacheManager manager;
  private InterceptedCache users;
  private InterceptedCache orders;

  private void start(OnRejoin onRejoin) {
    ShardedCaches.Builder builder =
        ShardedCaches.builder()
            .ticker(ticker)
            .scheduleProbes(false)
            .failover(new FailoverConfig(3, RETRY_AFTER, Duration.ofMillis(100), onRejoin))
            .cache("users", Duration.ofMinutes(10))
            .cache("orders", Duration.ofMinutes(10));
    for (String id : List.of("a", "b", "c", "d")) {
      FaultyNode node = new FaultyNode(CacheNodes.local(id, 1000, ticker));
      nodes.put(id, node);
      builder.node(node, 1);
    }
    manager = (RingCacheManager) builder.build();
    users = InterceptedCache.of(manager.cache("users"));
    orders = InterceptedCache.of(manager.cache("orders"));
  }

  @AfterEach
  void close() {
    if (manager != null) {
      manager.close();
    }
  }

  /** The {@code n}-th routing key of the cache owned by the node with the given id. */
  private String keyOwnedBy(InterceptedCache cache, String id, int n) {
    for (int i = 0, found = 0; ; i++) {
      String key = cache.routingKey(i, "T.m(id)");
      if (manager.ring().locate(key).id().equals(id) && found++ == n) {
        return key;
      }
    }
  }

  private List<String> liveIds() {
    return manager.liveRing().nodes().stream().map(Node::id).toList();
  }

  private void eject(String id) {
    nodes.get(id).failing(true);
    String key = keyOwnedBy(users, id, 0);
    for (int i = 0; i < 3; i++) {
      users.getIfPresent(key, ValueType.OBJECT);
    }
    nodes.get(id).failing(false);
    assertThat(liveIds()).doesNotContain(id);
  }

  private void probeWhenDue() {
    ticker.advance(RETRY_AFTER);
    manager.failurePolicy().probeDue();
  }

  @Test
  void clearWhileTheNodeIsOut_isAppliedBeforeItServesAgain() {
    start(OnRejoin.KEEP);
    String key = keyOwnedBy(users, "a", 0);
    users.put(key, "v1");
    eject("a");

    users.clear();
    probeWhenDue();

    assertThat(liveIds()).contains("a");
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
  }

  @Test
  void clearWhileTheProbeDeletesUnknownCopies_isAppliedBeforeTheNodeServes() {
    start(OnRejoin.KEEP);
    String key = keyOwnedBy(users, "a", 0);
    users.put(key, "v1");
    eject("a");
    // written at a's stand-in: a's copy of it is of unknown state, deleted by the probe
    users.put(keyOwnedBy(users, "a", 1), "x");
    // the clear comes after the probe has answered and looked at the queued clears (none yet)
    nodes.get("a").onceBefore("evict", users::clear);

    probeWhenDue();

    assertThat(liveIds()).contains("a");
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
  }

  @Test
  void clearWhileTheProbeAppliesAnotherQueuedClear_isAppliedBeforeTheNodeServes() {
    start(OnRejoin.KEEP);
    String key = keyOwnedBy(users, "a", 0);
    String order = keyOwnedBy(orders, "a", 0);
    users.put(key, "v1");
    orders.put(order, "o1");
    eject("a");
    orders.clear();
    // users is cleared while the probe sends the clear of orders, queued before it
    nodes.get("a").onceBefore("clear orders:", users::clear);

    probeWhenDue();

    assertThat(liveIds()).contains("a");
    assertThat(orders.getIfPresent(order, ValueType.OBJECT)).isNull();
    assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
  }
}
