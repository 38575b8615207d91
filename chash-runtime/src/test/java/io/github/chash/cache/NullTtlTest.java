package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.ValueLoader;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code nullTtl}: a cached null lives its own, shorter TTL; a value the cache's ttl. */
class NullTtlTest {
  private final FakeTicker ticker = new FakeTicker();
  private final ShardedCacheManager manager =
      ShardedCaches.builder()
          .node(NodeConfig.local("a"))
          .node(NodeConfig.local("b"))
          .cache(new CacheConfig("users", Duration.ofMinutes(10), 0, 0, Duration.ofSeconds(5)))
          .ticker(ticker)
          .build();
  private final InterceptedCache users = InterceptedCache.of(manager.cache("users"));

  @AfterEach
  void close() {
    manager.close();
  }

  @Test
  void cachedNull_expiresAfterNullTtl_valueAfterTheCacheTtl() throws Throwable {
    String missing = users.routingKey("missing", "T.m(missing)");
    String present = users.routingKey("present", "T.m(present)");
    AtomicInteger loads = new AtomicInteger();
    ValueLoader<Object> none =
        () -> {
          loads.incrementAndGet();
          return null;
        };

    assertThat(users.get(missing, ValueType.OBJECT, none, true, true)).isNull();
    users.put(present, "v");
    ticker.advance(Duration.ofMillis(4999));
    assertThat(users.get(missing, ValueType.OBJECT, none, true, true)).isNull();
    assertThat(loads).hasValue(1); // the cached null served

    ticker.advance(Duration.ofMillis(1));
    assertThat(users.get(missing, ValueType.OBJECT, none, true, true)).isNull();
    assertThat(loads).hasValue(2); // expired after 5 s: loaded again
    assertThat(users.getIfPresent(present, ValueType.OBJECT)).isEqualTo("v");

    ticker.advance(Duration.ofMinutes(10));
    assertThat(users.getIfPresent(present, ValueType.OBJECT)).isNull();
  }

  @Test
  void withTtl_shorterThanNullTtl_nullsLiveAtMostTheMethodsTtl() throws Throwable {
    InterceptedCache short1s = users.withTtl(Duration.ofSeconds(1));
    String key = short1s.routingKey("k", "T.m(k)");
    AtomicInteger loads = new AtomicInteger();
    ValueLoader<Object> none =
        () -> {
          loads.incrementAndGet();
          return null;
        };
    short1s.get(key, ValueType.OBJECT, none, true, true);
    ticker.advance(Duration.ofSeconds(1));
    short1s.get(key, ValueType.OBJECT, none, true, true);
    assertThat(loads).hasValue(2);
  }
}
