package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.spring.cache.ChashCache;
import io.github.chash.spring.cache.ChashCacheManager;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Caches whose codec is {@code jackson}, which writes no class name: the starter stores their
 * values as JSON by the methods' declared type, so a {@code Serializable} value is read back as
 * that type rather than as a {@code Map}; a cache of several declared types under such a codec
 * fails the startup. With the default jdk codec nothing changes. The reads themselves, through a
 * real codec, are in {@link JacksonCodecRedisIT}.
 */
class JacksonCodecTest {
  /** Serializable, so the jdk codec stores it as it is. */
  public record Product(long id, String name) implements Serializable {}

  public static class Catalog {
    final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    int runs(String method) {
      return runs.computeIfAbsent(method, m -> new AtomicInteger()).get();
    }

    private void ran(String method) {
      runs.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
    }

    @Cacheable("products")
    public Product find(long id) {
      ran("find");
      return new Product(id, "product " + id);
    }

    @Cacheable(cacheNames = "products", sync = true)
    public Product findOnce(long id) {
      ran("findOnce");
      return new Product(id, "product " + id);
    }

    @Cacheable(cacheNames = "lists", sync = true)
    public CompletableFuture<List<Product>> async(long id) {
      ran("async");
      return CompletableFuture.supplyAsync(() -> List.of(new Product(id, "async " + id)));
    }
  }

  /** A second declared type in {@code products}. */
  public static class Names {
    @Cacheable("products")
    public String name(long id) {
      return "product " + id;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  static class CatalogConfiguration {
    @Bean
    Catalog catalog() {
      return new Catalog();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class NamesConfiguration {
    @Bean
    Names names() {
      return new Names();
    }
  }

  @TempDir Path dir;

  @Test
  void withTheDefaultJdkCodec_aSerializableValueIsStoredAsItIs() {
    runner("")
        .run(
            context -> {
              Catalog catalog = context.getBean(Catalog.class);
              Product first = catalog.find(7);
              assertThat(catalog.find(7)).isEqualTo(first);
              assertThat(catalog.runs("find")).isEqualTo(1);
              ChashCacheManager caches = context.getBean(ChashCacheManager.class);
              assertThat(((ChashCache) caches.getCache("products")).jsonType()).isNull();
              assertThat(caches.jsonRefusals()).isEmpty();
            });
  }

  @Test
  void aValueOfAnotherClass_isACountedMiss_neverReturned() {
    runner("")
        .run(
            context -> {
              // what a codec without class names, another client or another annotation leaves
              InterceptedCache products =
                  InterceptedCache.of(context.getBean(ShardedCacheManager.class).cache("products"));
              products.put("products:7", Map.of("id", 7, "name", "product 7"));
              products.put("products:8", "not a product");
              InterceptedCache.of(context.getBean(ShardedCacheManager.class).cache("lists"))
                  .put("lists:3", Map.of());

              Catalog catalog = context.getBean(Catalog.class);
              assertThat(catalog.find(7)).isEqualTo(new Product(7, "product 7"));
              assertThat(catalog.find(7)).isEqualTo(new Product(7, "product 7"));
              assertThat(catalog.runs("find")).isEqualTo(1);
              assertThat(catalog.findOnce(8)).isEqualTo(new Product(8, "product 8"));
              assertThat(catalog.findOnce(8)).isEqualTo(new Product(8, "product 8"));
              assertThat(catalog.runs("findOnce")).isEqualTo(1);
              assertThat(catalog.async(3).get(10, TimeUnit.SECONDS))
                  .containsExactly(new Product(3, "async 3"));
              assertThat(catalog.runs("async")).isEqualTo(1);

              assertThat(context.getBean(ChashCacheManager.class).jsonRefusals())
                  .containsOnly(Map.entry("products", 2L), Map.entry("lists", 1L));
            });
  }

  @Test
  void underAJacksonCodec_eachDeclaredTypeIsStoredAsJson() {
    runner("redis:\n  codec: jackson\n")
        .run(
            context -> {
              ChashCacheManager caches = context.getBean(ChashCacheManager.class);
              assertThat(((ChashCache) caches.getCache("products")).jsonType())
                  .isEqualTo(Product.class);
              assertThat(((ChashCache) caches.getCache("lists")).jsonType())
                  .hasToString("java.util.List<" + Product.class.getName() + ">");
              Catalog catalog = context.getBean(Catalog.class);
              assertThat(catalog.find(7)).isEqualTo(catalog.find(7));
              assertThat(catalog.runs("find")).isEqualTo(1);
            });
  }

  @Test
  void aCacheOfSeveralTypesUnderAJacksonCodec_failsTheStartup_namingThem() {
    runner("", "{ codec: jackson }")
        .withUserConfiguration(NamesConfiguration.class)
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining(
                        "cache \"products\" holds values of several declared types")
                    .hasMessageContaining(
                        Product.class.getName() + " (returned by Catalog.find, Catalog.findOnce)")
                    .hasMessageContaining("java.lang.String (returned by Names.name)")
                    .hasMessageContaining("codec jackson"));
  }

  @Test
  void severalTypesUnderTheJdkCodec_stillStart() {
    runner("")
        .withUserConfiguration(NamesConfiguration.class)
        .run(context -> assertThat(context).hasNotFailed());
  }

  private ApplicationContextRunner runner(String block) {
    return runner(block, "{}");
  }

  private ApplicationContextRunner runner(String block, String products) {
    Path yaml = dir.resolve("chash.yaml");
    try {
      Files.writeString(
          yaml,
          block
              + "nodes:\n"
              + "  - id: shard-a\n"
              + "  - id: shard-b\n"
              + "caches:\n"
              + "  products: "
              + products
              + "\n"
              + "  lists: {}\n");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ChashAutoConfiguration.class))
        .withUserConfiguration(CatalogConfiguration.class)
        .withPropertyValues("chash.config=" + yaml.toUri());
  }
}
