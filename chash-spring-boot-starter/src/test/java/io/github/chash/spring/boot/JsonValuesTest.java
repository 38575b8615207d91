package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.EncodedValue;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.spring.cache.ChashCache;
import io.github.chash.spring.cache.ChashCacheManager;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ParameterizedTypeReference;

/**
 * Values whose declared type is not {@code Serializable} (plain records), cached with Spring's
 * annotations through the starter: stored as JSON and read back as the declared type, or a startup
 * that fails naming the type when there is no Jackson; a value that cannot be written is counted
 * and the call goes on.
 */
class JsonValuesTest {
  /** Not Serializable. */
  public record Item(long id, String name, List<String> tags) {}

  /** Not Serializable, and Jackson cannot write it: its accessor throws. */
  public record Unwritable(long id) {
    @Override
    public long id() {
      throw new IllegalStateException("no id today");
    }
  }

  public static class Shop {
    final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    int runs(String method) {
      return runs.computeIfAbsent(method, m -> new AtomicInteger()).get();
    }

    private void ran(String method) {
      runs.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
    }

    @Cacheable("products")
    public Item find(long id) {
      ran("find");
      return new Item(id, "item " + id, List.of("a", "b"));
    }

    @Cacheable(cacheNames = "prices", sync = true)
    public Unwritable unwritable(long id) {
      ran("unwritable");
      return new Unwritable(id);
    }

    @Cacheable(cacheNames = "users", sync = true)
    public CompletableFuture<List<Item>> async(long id) {
      ran("async");
      return CompletableFuture.supplyAsync(() -> List.of(new Item(id, "async " + id, List.of())));
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  static class ShopConfiguration {
    @Bean
    Shop shop() {
      return new Shop();
    }
  }

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ChashAutoConfiguration.class))
          .withUserConfiguration(ShopConfiguration.class);

  @Test
  void records_areStoredAsJson_andReadBackAsTheDeclaredType() {
    runner.run(
        context -> {
          Shop shop = context.getBean(Shop.class);
          ChashCacheManager caches = context.getBean(ChashCacheManager.class);
          assertThat(((ChashCache) caches.getCache("products")).jsonType()).isEqualTo(Item.class);
          assertThat(((ChashCache) caches.getCache("users")).jsonType())
              .isEqualTo(new ParameterizedTypeReference<List<Item>>() {}.getType());

          Item first = shop.find(7);
          Item second = shop.find(7);
          assertThat(second).isEqualTo(first).isNotSameAs(first);
          assertThat(shop.runs("find")).isEqualTo(1);
          Object stored =
              InterceptedCache.of(context.getBean(ShardedCacheManager.class).cache("products"))
                  .getIfPresent("products:7", ValueType.OBJECT);
          assertThat(new String(((EncodedValue) stored).bytes(), StandardCharsets.UTF_8))
              .isEqualTo("{\"id\":7,\"name\":\"item 7\",\"tags\":[\"a\",\"b\"]}");

          List<Item> async = shop.async(3).get(10, TimeUnit.SECONDS);
          assertThat(shop.async(3).get(10, TimeUnit.SECONDS)).isEqualTo(async);
          assertThat(async).containsExactly(new Item(3, "async 3", List.of()));
          assertThat(shop.runs("async")).isEqualTo(1);
          assertThat(caches.jsonRefusals())
              .containsOnly(
                  Map.entry("products", 0L), Map.entry("prices", 0L), Map.entry("users", 0L));
        });
  }

  @Test
  void aValueJacksonCannotWrite_isNotStored_counted_andTheCallGoesOn() {
    runner.run(
        context -> {
          Shop shop = context.getBean(Shop.class);
          assertThat(shop.unwritable(1)).isNotNull();
          assertThat(shop.unwritable(1)).isNotNull();
          assertThat(shop.runs("unwritable")).isEqualTo(2);
          assertThat(context.getBean(ChashCacheManager.class).jsonRefusals())
              .containsEntry("prices", 2L);
        });
  }

  @Test
  void withoutJackson_theStartupFails_namingTheTypeAndTheMethod() {
    runner
        .withClassLoader(
            new FilteredClassLoader("com.fasterxml.jackson.databind.", "tools.jackson.databind."))
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("chash cannot store the values of 3 caches:")
                    .hasMessageContaining(
                        "cache \"products\" holds "
                            + Item.class.getName()
                            + " (returned by Shop.find), which is not java.io.Serializable, and"
                            + " no Jackson is on the class path to store it as json"));
  }
}
