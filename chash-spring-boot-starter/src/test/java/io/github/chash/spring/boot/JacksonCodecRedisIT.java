package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.redis.RedisServerProcess;
import io.github.chash.spring.boot.JacksonCodecTest.Catalog;
import io.github.chash.spring.boot.JacksonCodecTest.CatalogConfiguration;
import io.github.chash.spring.boot.JacksonCodecTest.Product;
import io.github.chash.spring.cache.ChashCache;
import io.github.chash.spring.cache.ChashCacheManager;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A {@code Serializable} value cached with Spring's annotations on a real Redis whose codec is
 * {@code jackson} (the node block's or the cache's own): read back as the method's declared type on
 * the second call, never as the {@code Map} the codec reads a class-less JSON object as.
 */
class JacksonCodecRedisIT {
  private static final int HEADER = 20;

  @TempDir Path dir;

  @Test
  void theNodeBlocksJacksonCodec_readsTheDeclaredType() throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      runner(redis, "redis:\n  codec: jackson\n", "  products: {}\n")
          .run(
              context -> {
                Catalog catalog = context.getBean(Catalog.class);
                Product first = catalog.find(7);
                Product second = catalog.find(7);
                assertThat(second).isEqualTo(first);
                assertThat(catalog.runs("find")).isEqualTo(1);
                assertThat(json(redis.getBytes("chash:products:7")))
                    .isEqualTo("{\"id\":7,\"name\":\"product 7\"}");

                List<Product> async = catalog.async(3).get(10, TimeUnit.SECONDS);
                assertThat(catalog.async(3).get(10, TimeUnit.SECONDS)).isEqualTo(async);
                assertThat(catalog.runs("async")).isEqualTo(1);

                ChashCacheManager caches = context.getBean(ChashCacheManager.class);
                assertThat(((ChashCache) caches.getCache("products")).jsonType())
                    .isEqualTo(Product.class);
                assertThat(caches.jsonRefusals()).containsEntry("products", 0L);
              });
    }
  }

  @Test
  void aCachesOwnJacksonCodec_readsTheDeclaredType() throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      runner(redis, "", "  products: { codec: jackson }\n")
          .run(
              context -> {
                Catalog catalog = context.getBean(Catalog.class);
                Product first = catalog.find(8);
                assertThat(catalog.find(8)).isEqualTo(first);
                assertThat(catalog.runs("find")).isEqualTo(1);
                // the other caches keep the node block's jdk codec: values as they are
                ChashCacheManager caches = context.getBean(ChashCacheManager.class);
                assertThat(((ChashCache) caches.getCache("lists")).jsonType()).isNull();
              });
    }
  }

  @Test
  void underTheApplicationsOwnManager_aMapReadIsAMiss_neverAClassCastException() throws Exception {
    try (RedisServerProcess redis = RedisServerProcess.start()) {
      // the starter sees no chash.yaml, so it cannot know the codec: the read is checked instead
      ChashConfig config =
          ChashConfigs.parse(
              "redis:\n  codec: jackson\n"
                  + "nodes:\n  - { id: remote, type: redis, uri: \""
                  + redis.uri()
                  + "\" }\n"
                  + "caches:\n  products: {}\n  lists: {}\n",
              "own.yaml");
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ChashAutoConfiguration.class))
          .withUserConfiguration(CatalogConfiguration.class)
          .withBean(
              ShardedCacheManager.class,
              () -> ShardedCaches.builder().config(config).build(),
              definition -> definition.setDestroyMethodName("close"))
          .run(
              context -> {
                Catalog catalog = context.getBean(Catalog.class);
                assertThat(catalog.find(7)).isEqualTo(new Product(7, "product 7"));
                assertThat(catalog.find(7)).isEqualTo(new Product(7, "product 7"));
                assertThat(catalog.runs("find")).isEqualTo(2); // read as a Map: a miss
                assertThat(context.getBean(ChashCacheManager.class).jsonRefusals())
                    .containsEntry("products", 1L);
              });
    }
  }

  private ApplicationContextRunner runner(RedisServerProcess redis, String block, String products)
      throws Exception {
    Path yaml = dir.resolve("chash.yaml");
    Files.writeString(
        yaml,
        block
            + "nodes:\n"
            + "  - id: remote\n"
            + "    type: redis\n"
            + "    uri: "
            + redis.uri()
            + "\n"
            + "caches:\n"
            + products
            + "  lists: {}\n");
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ChashAutoConfiguration.class))
        .withUserConfiguration(CatalogConfiguration.class)
        .withPropertyValues("chash.config=" + yaml.toUri());
  }

  /** The JSON after the entry's header, as another Redis client reads it. */
  private static String json(byte[] stored) {
    assertThat(stored).isNotNull().hasSizeGreaterThan(HEADER);
    return new String(stored, HEADER, stored.length - HEADER, StandardCharsets.UTF_8);
  }
}
