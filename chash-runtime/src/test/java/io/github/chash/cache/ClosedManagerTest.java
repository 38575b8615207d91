package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.FailoverConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Closing a manager, and what its caches do afterwards; all nodes dying at once. */
class ClosedManagerTest {

  /** A local node that counts its closes, as a Redis client that must not be shut down twice. */
  private static final class CountingClose implements CacheNode {
    final CacheNode delegate;
    final AtomicInteger closes = new AtomicInteger();

    CountingClose(String id) {
      this.delegate = CacheNodes.local(id, 100);
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public Object get(String key, ValueType type) {
      return delegate.get(key, type);
    }

    @Override
    public void put(String key, Object value, Duration ttl) {
      delegate.put(key, value, ttl);
    }

    @Override
    public void evict(String key) {
      delegate.evict(key);
    }

    @Override
    public void clear() {
      delegate.clear();
    }

    @Override
    public void ping() {}

    @Override
    public long estimatedSize() {
      return delegate.estimatedSize();
    }

    @Override
    public void close() {
      closes.incrementAndGet();
      delegate.close();
    }
  }

  @Test
  void close_twiceClosesEachNodeOnce() {
    CountingClose a = new CountingClose("a");
    CountingClose b = new CountingClose("b");
    ShardedCacheManager manager =
        ShardedCaches.builder().node(a, 1).node(b, 1).cache("users", null).build();

    manager.close();
    manager.close();

    assertThat(a.closes).hasValue(1);
    assertThat(b.closes).hasValue(1);
  }

  @Test
  void closedManager_cachesFailWithAClearErrorInsteadOfQuietlyNotCaching() {
    ShardedCacheManager manager =
        ShardedCaches.builder().node(new CountingClose("a"), 1).cache("users", null).build();
    InterceptedCache users = InterceptedCache.of(manager.cache("users"));
    String key = users.routingKey("alice", "T.m(name)");
    manager.close();

    String closed = "cache \"users\" cannot be used: its ShardedCacheManager was closed";
    assertThatThrownBy(() -> users.getIfPresent(key, ValueType.OBJECT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(closed);
    assertThatThrownBy(() -> users.get(key, ValueType.OBJECT, () -> "v", true, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(closed);
    assertThatThrownBy(() -> users.load(key, ValueType.OBJECT, () -> "v", false, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(closed);
    assertThatThrownBy(() -> users.put(key, "v")).hasMessage(closed);
    assertThatThrownBy(() -> users.evict(key)).hasMessage(closed);
    assertThatThrownBy(() -> manager.cache("users"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(closed);
  }

  @Test
  void everyNodeFailingAtOnce_withFailureLimitOne_syncAndPlainLoadsReturnTheValue()
      throws Throwable {
    List<FaultyNode> nodes =
        List.of(
            new FaultyNode(CacheNodes.local("a", 100)),
            new FaultyNode(CacheNodes.local("b", 100)),
            new FaultyNode(CacheNodes.local("c", 100)));
    ShardedCaches.Builder builder =
        ShardedCaches.builder()
            .scheduleProbes(false)
            .failover(
                new FailoverConfig(
                    1, Duration.ofSeconds(30), Duration.ofMillis(100), OnRejoin.FLUSH))
            .cache("users", Duration.ofMinutes(1));
    nodes.forEach(n -> builder.node(n, 1));
    try (ShardedCacheManager manager = builder.build()) {
      InterceptedCache users = InterceptedCache.of(manager.cache("users"));
      nodes.forEach(n -> n.failing(true));

      for (int i = 0; i < 20; i++) {
        String key = users.routingKey(i, "T.m(id)");
        int expected = i;
        assertThat(users.<Integer>get(key, ValueType.OBJECT, () -> expected, i % 2 == 0, false))
            .isEqualTo(expected);
      }

      // one of three ejected: a second would take more than half the ring out
      assertThat(manager.liveRing().nodes()).hasSize(2);
      assertThat(users.stats().loadCount()).isEqualTo(20);
    }
  }
}
