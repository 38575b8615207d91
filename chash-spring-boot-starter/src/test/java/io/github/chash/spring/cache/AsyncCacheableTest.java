package io.github.chash.spring.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.NullValue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code @Cacheable} on {@code CompletableFuture}, {@code Mono} and {@code Flux} methods through
 * Spring's own cache interceptor ({@code @EnableCaching}) on {@link ChashCacheManager}: Spring
 * 6.1's {@code Cache.retrieve} contract, on three local shards.
 */
class AsyncCacheableTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private AnnotationConfigApplicationContext context;
  private ShardedCacheManager manager;
  private AsyncCatalogService catalog;

  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  static class Caching {
    @Bean
    AsyncCatalogService asyncCatalog() {
      return new AsyncCatalogService();
    }
  }

  @BeforeEach
  void start() {
    manager = ChashCacheManagerTest.threeShards();
    context = new AnnotationConfigApplicationContext();
    context.register(Caching.class);
    context.registerBean(CacheManager.class, () -> new ChashCacheManager(manager, true));
    context.refresh();
    catalog = context.getBean(AsyncCatalogService.class);
  }

  @AfterEach
  void stop() {
    context.close();
    manager.close();
  }

  private Object stored(String cache, String routingKey) {
    return InterceptedCache.of(manager.cache(cache)).getIfPresent(routingKey, ValueType.OBJECT);
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Test
  void future_withoutSync_runsTheBodyOnceForTwoCalls() throws Exception {
    CompletableFuture<String> first = catalog.product("p1");
    assertThat(first).isNotDone();
    catalog.pending("product", "p1").complete("product p1");
    assertThat(await(first)).isEqualTo("product p1");

    CompletableFuture<String> second = catalog.product("p1");
    assertThat(second).isCompleted();
    assertThat(await(second)).isEqualTo("product p1");
    assertThat(catalog.runs("product")).isEqualTo(1);
    assertThat(stored("products", "products:p1")).isEqualTo("product p1");
  }

  @Test
  void future_withSync_callsWhileItRunsShareOneFuture() throws Exception {
    CompletableFuture<String> first = catalog.productSync("p2");
    // the first future has not completed: these calls overlap its load
    CompletableFuture<String> second = catalog.productSync("p2");
    CompletableFuture<String> third = catalog.productSync("p2");
    assertThat(catalog.runs("productSync")).isEqualTo(1);
    assertThat(List.of(first, second, third)).noneMatch(CompletableFuture::isDone);

    catalog.pending("productSync", "p2").complete("product p2");
    assertThat(await(first)).isEqualTo("product p2");
    assertThat(await(second)).isEqualTo("product p2");
    assertThat(await(third)).isEqualTo("product p2");

    CompletableFuture<String> later = catalog.productSync("p2");
    assertThat(later).isCompleted();
    assertThat(await(later)).isEqualTo("product p2");
    assertThat(catalog.runs("productSync")).isEqualTo(1);
    assertThat(stored("products", "products:p2")).isEqualTo("product p2");
  }

  @Test
  void failingFuture_withSync_isNotCached() throws Exception {
    CompletableFuture<String> first = catalog.productSync("bad");
    CompletableFuture<String> sharing = catalog.productSync("bad");
    catalog.pending("productSync", "bad").completeExceptionally(new IllegalStateException("down"));
    assertThatThrownBy(() -> await(first)).hasRootCauseMessage("down");
    assertThatThrownBy(() -> await(sharing)).hasRootCauseMessage("down");
    assertThat(stored("products", "products:bad")).isNull();

    catalog.forgetPending();
    CompletableFuture<String> retry = catalog.productSync("bad");
    assertThat(catalog.runs("productSync")).isEqualTo(2);
    catalog.pending("productSync", "bad").complete("recovered");
    assertThat(await(retry)).isEqualTo("recovered");
    assertThat(await(catalog.productSync("bad"))).isEqualTo("recovered");
    assertThat(catalog.runs("productSync")).isEqualTo(2);
  }

  @Test
  void failingFuture_withoutSync_isNotCached() throws Exception {
    CompletableFuture<String> first = catalog.product("bad");
    catalog.pending("product", "bad").completeExceptionally(new IllegalStateException("down"));
    assertThatThrownBy(() -> await(first)).hasRootCauseMessage("down");
    assertThat(stored("products", "products:bad")).isNull();

    catalog.forgetPending();
    CompletableFuture<String> retry = catalog.product("bad");
    catalog.pending("product", "bad").complete("recovered");
    assertThat(await(retry)).isEqualTo("recovered");
    assertThat(await(catalog.product("bad"))).isEqualTo("recovered");
    assertThat(catalog.runs("product")).isEqualTo(2);
  }

  @Test
  void futureOfNull_isACachedNull() throws Exception {
    assertThat(await(catalog.nothing("a"))).isNull();
    assertThat(await(catalog.nothing("a"))).isNull();
    assertThat(catalog.runs("nothing")).isEqualTo(1);
    assertThat(stored("users", "users:none:a")).isSameAs(NullValue.INSTANCE);
  }

  @Test
  void mono_withoutSync_runsTheBodyOnceForTwoCalls() throws Exception {
    CompletableFuture<String> first = catalog.user("u1").toFuture();
    catalog.pending("user", "u1").complete("user u1");
    assertThat(await(first)).isEqualTo("user u1");
    assertThat(catalog.user("u1").block(WAIT)).isEqualTo("user u1");
    assertThat(catalog.runs("user")).isEqualTo(1);
    assertThat(stored("users", "users:u1")).isEqualTo("user u1");
  }

  @Test
  void mono_withSync_callsWhileItRunsShareOneLoad() throws Exception {
    CompletableFuture<String> first = catalog.userSync("u2").toFuture();
    CompletableFuture<String> second = catalog.userSync("u2").toFuture();
    assertThat(catalog.runs("userSync")).isEqualTo(1);
    catalog.pending("userSync", "u2").complete("user u2");
    assertThat(await(first)).isEqualTo("user u2");
    assertThat(await(second)).isEqualTo("user u2");
    assertThat(catalog.userSync("u2").block(WAIT)).isEqualTo("user u2");
    assertThat(catalog.runs("userSync")).isEqualTo(1);
  }

  @Test
  void failingMono_isNotCached() throws Exception {
    CompletableFuture<String> first = catalog.user("bad").toFuture();
    catalog.pending("user", "bad").completeExceptionally(new IllegalStateException("down"));
    assertThatThrownBy(() -> await(first)).hasRootCauseMessage("down");
    catalog.forgetPending();
    CompletableFuture<String> syncFirst = catalog.userSync("bad").toFuture();
    catalog.pending("userSync", "bad").completeExceptionally(new IllegalStateException("down"));
    assertThatThrownBy(() -> await(syncFirst)).hasRootCauseMessage("down");
    assertThat(stored("users", "users:bad")).isNull();
    assertThat(stored("users", "users:sync:bad")).isNull();

    catalog.forgetPending();
    catalog.pending("user", "bad").complete("user ok");
    catalog.pending("userSync", "bad").complete("sync ok");
    assertThat(catalog.user("bad").block(WAIT)).isEqualTo("user ok");
    assertThat(catalog.userSync("bad").block(WAIT)).isEqualTo("sync ok");
    assertThat(catalog.user("bad").block(WAIT)).isEqualTo("user ok");
    assertThat(catalog.userSync("bad").block(WAIT)).isEqualTo("sync ok");
    assertThat(catalog.runs("user")).isEqualTo(2);
    assertThat(catalog.runs("userSync")).isEqualTo(2);
  }

  @Test
  void flux_withSync_cachesItsElements() throws Exception {
    catalog.pending("prices", "x").complete("price x");
    assertThat(catalog.prices("x").collectList().block(WAIT))
        .containsExactly("price x", "price x-2");
    assertThat(catalog.prices("x").collectList().block(WAIT))
        .containsExactly("price x", "price x-2");
    assertThat(catalog.runs("prices")).isEqualTo(1);
    assertThat(stored("prices", "prices:x")).isEqualTo(List.of("price x", "price x-2"));
  }
}
