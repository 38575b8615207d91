package io.github.chash.spring.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.aspect.spring.ShardedCacheAspectConfiguration;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.ring.Node;
import io.github.chash.testing.CollidingKeys;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.interceptor.KeyGenerator;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Both annotation families in one context agree on where a key lives: what {@code @Cacheable}
 * stores, {@code @ShardedCacheable} finds under the same key (and the reverse), on the node the
 * ring names for it.
 */
class KeyAgreementTest {
  private AnnotationConfigApplicationContext context;
  private ShardedCacheManager manager;
  private TwoFamiliesService service;
  private ChashCacheManager springCaches;

  /** A plain Spring application's setup: chash's key generator, as the starter registers it. */
  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  @Import(ShardedCacheAspectConfiguration.class)
  static class BothFamilies implements CachingConfigurer {
    @Override
    public KeyGenerator keyGenerator() {
      return new ChashKeyGenerator();
    }
  }

  @BeforeEach
  void start() {
    manager = ChashCacheManagerTest.threeShards();
    context = new AnnotationConfigApplicationContext();
    context.register(BothFamilies.class);
    context.registerBean(
        ShardedCacheManager.class, () -> manager, bd -> bd.setDestroyMethodName(""));
    context.registerBean(CacheManager.class, () -> new ChashCacheManager(manager, true));
    context.registerBean(TwoFamiliesService.class);
    context.refresh();
    service = context.getBean(TwoFamiliesService.class);
    springCaches = (ChashCacheManager) context.getBean(CacheManager.class);
  }

  @AfterEach
  void stop() {
    context.close();
    manager.close();
  }

  @Test
  void singleArgument_springStoresChashReads() {
    for (int i = 0; i < 200; i++) {
      assertThat(service.springUser("u" + i)).isEqualTo("spring u" + i);
    }
    for (int i = 0; i < 200; i++) {
      assertThat(service.chashUser("u" + i)).isEqualTo("spring u" + i);
    }
    assertThat(service.springRuns()).isEqualTo(200);
    assertThat(service.chashRuns()).isEqualTo(0);
  }

  @Test
  void severalArguments_chashStoresSpringReads() {
    for (int i = 0; i < 100; i++) {
      service.chashPrice("sku" + i, i);
    }
    for (int i = 0; i < 100; i++) {
      assertThat(service.springPrice("sku" + i, i)).isEqualTo("chash sku" + i + "x" + i);
    }
    assertThat(service.chashRuns()).isEqualTo(100);
    assertThat(service.springRuns()).isEqualTo(0);
  }

  @Test
  void recordAndLongKeys_agreeBothWays() {
    service.springSku(new TwoFamiliesService.Sku("acme", 1));
    assertThat(service.chashSku(new TwoFamiliesService.Sku("acme", 1))).startsWith("spring");
    service.chashLong(42);
    assertThat(service.springLong(42)).isEqualTo("chash 42");
    assertThat(service.springRuns()).isEqualTo(1);
    assertThat(service.chashRuns()).isEqualTo(1);
  }

  /**
   * Arguments that once shared a key (issue 43) get their own entries through {@code @Cacheable},
   * and {@code @ShardedCacheable} finds each under the same key: the text {@code null} no longer
   * gets the value cached for {@code null}.
   */
  @Test
  void argumentsThatOnceSharedAKey_getTheirOwnValues_inBothFamilies() {
    int springRuns = 0;
    for (Object[] pair : CollidingKeys.pairs()) {
      String what = java.util.Arrays.deepToString(pair);
      for (Object key : pair) {
        String value = "spring " + CollidingKeys.described(key);
        assertThat(service.springAny(key)).as(what).isEqualTo(value);
        assertThat(service.springAny(key)).as(what).isEqualTo(value);
        assertThat(service.chashAny(key)).as(what).isEqualTo(value);
        assertThat(service.springRuns()).as(what).isEqualTo(++springRuns);
      }
      manager.cache("users").clear();
    }
    assertThat(service.chashRuns()).isZero();
    assertThat(service.springTwo(null, "x")).isEqualTo("spring null,x");
    assertThat(service.springTwo("null", "x")).isEqualTo("spring String null,x");
    assertThat(service.springTwo(null, "x")).isEqualTo("spring null,x");
    assertThat(service.springRuns()).isEqualTo(springRuns + 2);
  }

  @Test
  void putThroughSpring_evictThroughChash() {
    service.springPut("p", "put by spring");
    assertThat(service.chashUser("p")).isEqualTo("put by spring");
    service.chashEvict("p");
    assertThat(service.springUser("p")).isEqualTo("spring p");
  }

  @Test
  void cachedNull_isACachedNullForBoth() {
    assertThat(service.springNull("a")).isNull();
    assertThat(service.chashNull("a")).isNull();
    assertThat(service.chashNull("b")).isNull();
    assertThat(service.springNull("b")).isNull();
    assertThat(service.springRuns()).isEqualTo(1);
    assertThat(service.chashRuns()).isEqualTo(1);
  }

  @Test
  void entries_liveOnTheNodeTheRingNamesForTheRoutingKey() {
    ChashCache prices = (ChashCache) springCaches.getCache("prices");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      service.springPrice("sku" + i, i);
      String routingKey = prices.routingKey(ChashKeyGenerator.generateKey("sku" + i, i));
      assertThat(routingKey).isEqualTo("prices:sku" + i + "," + i);
      keys.add(routingKey);
    }
    for (String key : keys) {
      Node owner = manager.ring().locate(key);
      for (Node node : manager.ring().nodes()) {
        Object stored = manager.node(node.id()).get(key, ValueType.OBJECT);
        if (node.equals(owner)) {
          assertThat(stored).as(key + " on its owner " + owner.id()).isNotNull();
        } else {
          assertThat(stored).as(key + " on " + node.id()).isNull();
        }
      }
    }
    // the keys are spread, not all on one node
    assertThat(keys.stream().map(k -> manager.ring().locate(k)).distinct()).hasSize(3);
  }
}
