package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.aspect.ShardedCacheable;
import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ConfigException;
import io.github.chash.spring.cache.ChashCacheManager;
import io.github.chash.spring.cache.ChashKeyGenerator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.cache.CacheAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.cache.interceptor.CacheInterceptor;
import org.springframework.cache.interceptor.SimpleKeyGenerator;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What the starter puts into a Spring Boot context, and when it backs off. */
class ChashAutoConfigurationTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(ChashAutoConfiguration.class, CacheAutoConfiguration.class));

  /** An application's Spring caching. */
  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  static class UsesUsersAndPrices {
    @Bean
    Prices prices() {
      return new Prices();
    }
  }

  /** Uses the cache "users" of the test chash.yaml and "prices". */
  static class Prices {
    final AtomicInteger runs = new AtomicInteger();

    @Cacheable("users")
    public String user(String id) {
      runs.incrementAndGet();
      return "u" + id;
    }

    @Cacheable(cacheNames = "prices")
    public String price(String sku) {
      return sku;
    }

    @Cacheable(cacheNames = "prices")
    public String price(String sku, int quantity) {
      runs.incrementAndGet();
      return sku + "x" + quantity;
    }

    @ShardedCacheable(cache = "users", key = "'sharded:' + #id")
    public String sharded(String id) {
      runs.incrementAndGet();
      return "s" + id;
    }

    public int runs() {
      return runs.get();
    }
  }

  /** Uses a cache chash.yaml does not have. */
  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  static class UsesUnknownCache {
    @Bean
    Inventory inventory() {
      return new Inventory();
    }
  }

  static class Inventory {
    @Cacheable("stock")
    public int stock(String sku) {
      return 1;
    }

    @Cacheable(cacheNames = "stock", cacheManager = "otherCacheManager")
    public int elsewhere(String sku) {
      return 2;
    }
  }

  @Test
  void manager_isBuiltFromChashYamlOnTheClassPathAndClosedWithTheContext() {
    ShardedCacheManager[] seen = new ShardedCacheManager[1];
    runner.run(
        context -> {
          assertThat(context).hasSingleBean(ShardedCacheManager.class);
          assertThat(context).hasSingleBean(ChashConfig.class);
          ShardedCacheManager manager = context.getBean(ShardedCacheManager.class);
          assertThat(manager.cacheNames()).containsExactly("users", "products", "prices");
          assertThat(manager.ring().nodes()).hasSize(3);
          assertThat(context.getBean(ChashConfig.class).source()).isEqualTo("chash.yaml");
          seen[0] = manager;
        });
    assertThatThrownBy(() -> seen[0].cache("users"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void chashConfig_namesAFileWithAPlaceholder(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("ring.yaml"),
        "nodes:\n  - id: one\ncaches:\n  orders: { ttl: 5m }\n",
        StandardCharsets.UTF_8);
    runner
        .withPropertyValues("app.dir=" + dir.toUri(), "chash.config=${app.dir}ring.yaml")
        .run(
            context -> {
              ShardedCacheManager manager = context.getBean(ShardedCacheManager.class);
              assertThat(manager.cacheNames()).containsExactly("orders");
              assertThat(manager.cache("orders").ttl()).isEqualTo(Duration.ofMinutes(5));
            });
  }

  @Test
  void chashConfig_chosenByAProfile() {
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(Empty.class)
            .web(WebApplicationType.NONE)
            .profiles("eu")
            .run()) {
      ShardedCacheManager manager = context.getBean(ShardedCacheManager.class);
      assertThat(manager.cacheNames()).containsExactly("regions");
      assertThat(manager.ring().nodes()).extracting(n -> n.id()).containsExactly("eu-1", "eu-2");
    }
  }

  /** A Boot application with nothing of its own. */
  @org.springframework.boot.SpringBootConfiguration
  @org.springframework.boot.autoconfigure.EnableAutoConfiguration
  static class Empty {}

  @Test
  void missingFile_failsTheStartupNamingTheLocation() {
    runner
        .withPropertyValues("chash.config=classpath:nowhere/chash.yaml")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith(
                        "chash.yaml:1:1: not found: classpath:nowhere/chash.yaml")
                    .hasMessageContaining("chash.config"));
  }

  @Test
  void invalidFile_failsTheStartupWithFileLineAndColumn(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("bad.yaml"), "nodes:\n  - id: a\n    weight: -1\n");
    runner
        .withPropertyValues("chash.config=" + dir.resolve("bad.yaml").toUri())
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("bad.yaml:3:13: nodes[0].weight must be a positive"));
  }

  @Test
  void usersOwnManager_makesTheStarterBackOff() {
    ShardedCacheManager own =
        ShardedCaches.builder().node(CacheNodes.local("own", 10), 1).cache("users", null).build();
    runner
        .withBean(ShardedCacheManager.class, () -> own)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(ChashConfig.class);
              assertThat(context.getBean(ShardedCacheManager.class)).isSameAs(own);
              assertThat(context.getBean(ChashCacheManager.class).shardedCacheManager())
                  .isSameAs(own);
            });
    own.close();
  }

  @Test
  void springCacheType_unsetOrChashSelectsChash() {
    runner
        .withUserConfiguration(UsesUsersAndPrices.class)
        .run(
            context ->
                assertThat(context.getBean(CacheManager.class))
                    .isInstanceOf(ChashCacheManager.class));
    runner
        .withUserConfiguration(UsesUsersAndPrices.class)
        .withPropertyValues("spring.cache.type=chash")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(CacheManager.class)).isInstanceOf(ChashCacheManager.class);
            });
  }

  @Test
  void springCacheType_otherSelectsBootsCacheManagerWhileTheAnnotationsKeepChash() {
    runner
        .withUserConfiguration(UsesUsersAndPrices.class)
        .withPropertyValues("spring.cache.type=simple")
        .run(
            context -> {
              assertThat(context.getBean(CacheManager.class))
                  .isInstanceOf(ConcurrentMapCacheManager.class);
              assertThat(context).hasSingleBean(ShardedCacheManager.class);
              Prices prices = context.getBean(Prices.class);
              prices.sharded("1");
              prices.sharded("1");
              assertThat(prices.runs()).isEqualTo(1);
            });
  }

  @Test
  void usersOwnCacheManager_makesTheChashCacheManagerBackOff() {
    runner
        .withUserConfiguration(UsesUsersAndPrices.class)
        .withBean("cacheManager", CacheManager.class, ConcurrentMapCacheManager::new)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(ChashCacheManager.class);
              assertThat(context).hasSingleBean(ShardedCacheManager.class);
            });
  }

  @Test
  void bothFamilies_workInOneApplication() {
    runner
        .withUserConfiguration(UsesUsersAndPrices.class)
        .run(
            context -> {
              Prices prices = context.getBean(Prices.class);
              prices.user("1");
              prices.user("1");
              prices.sharded("1");
              prices.sharded("1");
              assertThat(prices.runs()).isEqualTo(2);
              assertThat(
                      context
                          .getBean(ShardedCacheManager.class)
                          .cacheStats()
                          .get("users")
                          .hitCount())
                  .isEqualTo(2);
            });
  }

  @Test
  void keysOfSeveralArguments_routedByTheStartersKeyGenerator() {
    runner
        .withUserConfiguration(UsesUsersAndPrices.class)
        .run(
            context -> {
              assertThat(context.getBean(CacheInterceptor.class).getKeyGenerator())
                  .isInstanceOf(ChashKeyGenerator.class);
              Prices prices = context.getBean(Prices.class);
              assertThat(prices.price("sku", 3)).isEqualTo("skux3");
              assertThat(prices.price("sku", 3)).isEqualTo("skux3");
              assertThat(prices.runs()).isEqualTo(1);
              // routed as @ShardedCacheable routes the arguments ("sku", 3)
              assertThat(
                      io.github.chash.internal.cache.InterceptedCache.of(
                              context.getBean(ShardedCacheManager.class).cache("prices"))
                          .getIfPresent("prices:sku,3", io.github.chash.cache.ValueType.OBJECT))
                  .isEqualTo("skux3");
            });
  }

  /** An application's own caching configurer, which keeps Spring's default key generator. */
  @Configuration(proxyBeanMethods = false)
  static class OwnConfigurer implements CachingConfigurer {}

  @Test
  void usersOwnCachingConfigurer_makesTheStartersBackOff() {
    runner
        .withUserConfiguration(UsesUsersAndPrices.class, OwnConfigurer.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(CachingConfigurer.class);
              assertThat(context.getBean(CachingConfigurer.class))
                  .isInstanceOf(OwnConfigurer.class);
              assertThat(context.getBean(CacheInterceptor.class).getKeyGenerator())
                  .isInstanceOf(SimpleKeyGenerator.class);
            });
  }

  @Test
  void aspectProxiesOff_leavesShardedAnnotationsToAspectJ() {
    runner
        .withUserConfiguration(UsesUsersAndPrices.class)
        .withPropertyValues("chash.aspect.proxies=false")
        .run(
            context -> {
              Prices prices = context.getBean(Prices.class);
              prices.sharded("1");
              prices.sharded("1");
              assertThat(prices.runs()).isEqualTo(2);
            });
  }

  @Test
  void unknownCacheName_failsTheStartupListingTheConfiguredCaches() {
    runner
        .withUserConfiguration(UsesUnknownCache.class)
        .withPropertyValues("spring.cache.cache-names=users,extra")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(
                        "spring caching uses caches that chash does not have:\n"
                            + "  cache \"extra\", used by spring.cache.cache-names\n"
                            + "  cache \"stock\", used by Inventory.stock\n"
                            + "the configured caches are [users, products, prices]; add the"
                            + " missing ones under caches: in chash.yaml, or (when the starter"
                            + " builds the ShardedCacheManager) set"
                            + " chash.cache.create-missing=true to create them with"
                            + " chash.cache.default-ttl"));
  }

  @Test
  void createMissing_createsTheUnknownCachesWithTheDefaultTtl() {
    runner
        .withUserConfiguration(UsesUnknownCache.class)
        .withPropertyValues(
            "chash.cache.create-missing=true",
            "chash.cache.default-ttl=90s",
            "spring.cache.cache-names=extra")
        .run(
            context -> {
              ShardedCacheManager manager = context.getBean(ShardedCacheManager.class);
              assertThat(manager.cacheNames())
                  .containsExactly("users", "products", "prices", "extra", "stock");
              assertThat(manager.cache("stock").ttl()).isEqualTo(Duration.ofSeconds(90));
              assertThat(manager.cache("users").ttl()).isEqualTo(Duration.ofMinutes(10));
              assertThat(context.getBean(Inventory.class).stock("a")).isEqualTo(1);
            });
  }

  @Test
  void createMissing_refusesANameChashCannotUse() {
    runner
        .withUserConfiguration(UsesUnknownCache.class)
        .withPropertyValues("chash.cache.create-missing=true", "spring.cache.cache-names=a:b")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasStackTraceContaining(
                        "IllegalStateException: chash.cache.create-missing cannot create the cache"
                            + " used by spring.cache.cache-names: cache name \"a:b\" must not"
                            + " contain ':'"));
  }

  @Test
  void nullValues_allowedByDefaultAndSwitchedOffByProperty() {
    runner.run(
        context ->
            assertThat(
                    ((org.springframework.cache.support.AbstractValueAdaptingCache)
                            context.getBean(ChashCacheManager.class).getCache("users"))
                        .isAllowNullValues())
                .isTrue());
    runner
        .withPropertyValues("chash.cache.allow-null-values=false")
        .run(
            context ->
                assertThat(
                        ((org.springframework.cache.support.AbstractValueAdaptingCache)
                                context.getBean(ChashCacheManager.class).getCache("users"))
                            .isAllowNullValues())
                    .isFalse());
  }
}
