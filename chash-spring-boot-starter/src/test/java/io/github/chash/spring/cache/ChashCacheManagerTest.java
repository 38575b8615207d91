package io.github.chash.spring.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.interceptor.KeyGenerator;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Plain Spring caching annotations on {@link ChashCacheManager}, in a real Spring context. */
class ChashCacheManagerTest {
  private AnnotationConfigApplicationContext context;
  private ShardedCacheManager manager;
  private CatalogService catalog;

  static ShardedCacheManager threeShards() {
    return ShardedCaches.builder()
        .node(CacheNodes.local("shard-a", 1000), 1)
        .node(CacheNodes.local("shard-b", 1000), 1)
        .node(CacheNodes.local("shard-c", 1000), 1)
        .cache("products", null)
        .cache("prices", null)
        .cache("users", Duration.ofMinutes(10))
        .build();
  }

  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  static class Caching implements CachingConfigurer {
    @Bean
    CatalogService catalog() {
      return new CatalogService();
    }

    @Override
    public KeyGenerator keyGenerator() {
      return new ChashKeyGenerator();
    }
  }

  private void start(boolean allowNullValues) {
    manager = threeShards();
    context = new AnnotationConfigApplicationContext();
    context.register(Caching.class);
    context.registerBean(CacheManager.class, () -> new ChashCacheManager(manager, allowNullValues));
    context.refresh();
    catalog = context.getBean(CatalogService.class);
  }

  @AfterEach
  void stop() {
    if (context != null) {
      context.close();
    }
    if (manager != null) {
      manager.close();
    }
  }

  @Test
  void cacheable_runsTheBodyOncePerKey() {
    start(true);
    for (int round = 0; round < 3; round++) {
      for (long id = 1; id <= 20; id++) {
        assertThat(catalog.product(id)).isEqualTo("product-" + id);
      }
    }
    assertThat(catalog.runs("product")).isEqualTo(20);
    assertThat(manager.cacheStats().get("products").hitCount()).isEqualTo(40);
    assertThat(manager.cacheStats().get("products").missCount()).isEqualTo(20);
  }

  @Test
  void cacheable_keysOfSeveralArgumentsSpelAndRecords() {
    start(true);
    catalog.price("p1", "EUR");
    catalog.price("p1", "USD");
    catalog.price("p1", "EUR");
    catalog.user("Alice");
    catalog.user("ALICE");
    catalog.bySku(new CatalogService.Sku("acme", 7));
    catalog.bySku(new CatalogService.Sku("acme", 7));
    catalog.byList(List.of("a", "b"));
    catalog.byList(List.of("a", "b"));
    assertThat(catalog.runs("price")).isEqualTo(2);
    assertThat(catalog.runs("user")).isEqualTo(1);
    assertThat(catalog.runs("bySku")).isEqualTo(1);
    assertThat(catalog.runs("byList")).isEqualTo(1);
    // the routing keys follow chash's canonical rules: arguments joined, records as (c1,c2)
    assertThat(
            InterceptedCache.of(manager.cache("prices"))
                .getIfPresent("prices:p1,EUR", ValueType.OBJECT))
        .isEqualTo("p1@EUR");
    assertThat(
            InterceptedCache.of(manager.cache("users"))
                .getIfPresent("users:alice", ValueType.OBJECT))
        .isEqualTo("user Alice");
    assertThat(
            InterceptedCache.of(manager.cache("products"))
                .getIfPresent("products:(acme,7)", ValueType.OBJECT))
        .isEqualTo("sku acme-7");
    assertThat(
            InterceptedCache.of(manager.cache("prices"))
                .getIfPresent("prices:[a,b]", ValueType.OBJECT))
        .isEqualTo("a+b");
  }

  @Test
  void cachePut_replacesTheValueTheNextReadReturns() {
    start(true);
    catalog.product(5);
    catalog.updateProduct(5, "renamed");
    assertThat(catalog.product(5)).isEqualTo("renamed");
    assertThat(catalog.runs("product")).isEqualTo(1);
  }

  @Test
  void cacheEvict_makesTheNextReadRunTheBody() {
    start(true);
    catalog.product(5);
    catalog.product(6);
    catalog.evictProduct(5);
    catalog.product(5);
    catalog.product(6);
    assertThat(catalog.runs("product")).isEqualTo(3);
  }

  @Test
  void cacheEvictAllEntries_clearsOnlyThatCache() {
    start(true);
    for (long id = 1; id <= 10; id++) {
      catalog.product(id);
    }
    catalog.user("bob");
    catalog.evictAllProducts();
    for (long id = 1; id <= 10; id++) {
      catalog.product(id);
    }
    catalog.user("bob");
    assertThat(catalog.runs("product")).isEqualTo(20);
    assertThat(catalog.runs("user")).isEqualTo(1);
  }

  @Test
  void caching_evictsFromSeveralCaches() {
    start(true);
    catalog.product(9);
    catalog.user("Carol");
    catalog.forget(9, "CAROL");
    catalog.product(9);
    catalog.user("carol");
    assertThat(catalog.runs("product")).isEqualTo(2);
    assertThat(catalog.runs("user")).isEqualTo(2);
  }

  @Test
  void condition_falseBypassesTheCache() {
    start(true);
    catalog.conditional(-1);
    catalog.conditional(-1);
    catalog.conditional(1);
    catalog.conditional(1);
    assertThat(catalog.runs("conditional")).isEqualTo(3);
  }

  @Test
  void unless_keepsMatchingResultsOut() {
    start(true);
    catalog.unless("tmp-1");
    catalog.unless("tmp-1");
    catalog.unless("kept");
    catalog.unless("kept");
    assertThat(catalog.runs("unless")).isEqualTo(3);
  }

  @Test
  void allowNullValues_cachesNullAsChashCachedNull() {
    start(true);
    assertThat(catalog.missing(1)).isNull();
    assertThat(catalog.missing(1)).isNull();
    assertThat(catalog.runs("missing")).isEqualTo(1);
    // the marker both annotation families read as a cached null
    assertThat(
            InterceptedCache.of(manager.cache("users"))
                .getIfPresent("users:missing:1", ValueType.OBJECT))
        .isSameAs(io.github.chash.internal.cache.NullValue.INSTANCE);
  }

  @Test
  void noNullValues_refusesToCacheNullAsSpringDoes() {
    start(false);
    assertThatThrownBy(() -> catalog.missing(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("users")
        .hasMessageContaining("null");
  }

  @Test
  void sync_oneLoadPerKeyWhileOthersWait() throws Exception {
    start(true);
    CountDownLatch gate = catalog.closePriceGate();
    int callers = 6;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      List<Thread> threads = new ArrayList<>();
      List<Future<String>> results = new ArrayList<>();
      CountDownLatch started = new CountDownLatch(callers);
      for (int i = 0; i < callers; i++) {
        results.add(
            pool.submit(
                () -> {
                  synchronized (threads) {
                    threads.add(Thread.currentThread());
                  }
                  started.countDown();
                  return catalog.slowPrice("sku-1");
                }));
      }
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      // every caller is parked: one in the body behind the gate, the others on its load
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!allWaiting(threads) && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(allWaiting(threads)).as("all callers waiting").isTrue();
      assertThat(results).noneMatch(Future::isDone);
      gate.countDown();
      for (Future<String> result : results) {
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("slow sku-1");
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(catalog.runs("slowPrice")).isEqualTo(1);
    assertThat(catalog.slowPrice("sku-1")).isEqualTo("slow sku-1");
    assertThat(catalog.runs("slowPrice")).isEqualTo(1);
  }

  private static boolean allWaiting(List<Thread> threads) {
    synchronized (threads) {
      return threads.stream()
          .allMatch(
              t ->
                  t.getState() == Thread.State.WAITING
                      || t.getState() == Thread.State.TIMED_WAITING);
    }
  }

  @Test
  void sync_loaderExceptionReachesTheCallerUnwrapped() {
    start(true);
    assertThatThrownBy(() -> catalog.failingPrice("x"))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("no price for x");
    assertThatThrownBy(() -> catalog.failingPrice("x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(catalog.runs("failingPrice")).isEqualTo(2);
  }

  @Test
  void keyWithoutStableForm_isRejectedNamingTheCache() {
    start(true);
    assertThatThrownBy(() -> catalog.byIdentity(new Object()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cache \"users\"")
        .hasMessageContaining("no stable string form");
  }

  @Test
  void getCache_unknownNameIsNullAsSpringsContractSays() {
    start(true);
    CacheManager springCaches = context.getBean(CacheManager.class);
    assertThat(springCaches.getCacheNames()).containsExactly("products", "prices", "users");
    assertThat(springCaches.getCache("nope")).isNull();
    assertThat(springCaches.getCache("users").getNativeCache()).isSameAs(manager.cache("users"));
  }

  @Test
  void counters_countSpringPutsAndEvictionsInTheCachesStats() {
    start(true);
    catalog.product(1); // miss, then Spring puts the result
    catalog.product(1); // hit
    catalog.updateProduct(1, "x"); // @CachePut
    catalog.evictProduct(1);
    catalog.evictProduct(2);
    var stats = manager.cacheStats().get("products");
    assertThat(stats.putCount()).isEqualTo(2);
    assertThat(stats.evictionCount()).isEqualTo(2);
  }
}
