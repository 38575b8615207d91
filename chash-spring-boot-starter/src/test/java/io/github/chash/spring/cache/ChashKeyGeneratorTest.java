package io.github.chash.spring.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.ShardedCacheManager;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.interceptor.SimpleKey;
import org.springframework.cache.interceptor.SimpleKeyGenerator;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link ChashKeyGenerator}'s keys are Spring's default keys (equal, same hash code, same string),
 * and the keys chash routes without reading Spring's private fields; a plain {@code SimpleKey} of
 * arguments is refused with an error saying what to do.
 */
class ChashKeyGeneratorTest {
  private AnnotationConfigApplicationContext context;
  private ShardedCacheManager manager;

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
  void keys_areSpringsDefaultKeys() {
    List<Object[]> calls =
        List.of(
            new Object[] {},
            new Object[] {"one"},
            new Object[] {42L},
            new Object[] {null},
            new Object[] {new int[] {1, 2}},
            new Object[] {"sku", 3},
            new Object[] {"a", null, List.of(1, 2)});
    for (Object[] args : calls) {
      Object spring = SimpleKeyGenerator.generateKey(args);
      Object chash = ChashKeyGenerator.generateKey(args);
      assertThat(chash).isEqualTo(spring);
      assertThat(spring).isEqualTo(chash);
      assertThat(chash.hashCode()).isEqualTo(spring.hashCode());
      assertThat(chash.toString()).isEqualTo(spring.toString());
    }
    assertThat(ChashKeyGenerator.generateKey("one")).isEqualTo("one");
    assertThat(ChashKeyGenerator.generateKey()).isSameAs(SimpleKey.EMPTY);
  }

  @Test
  void keys_surviveJavaSerializationWithTheirArguments() throws Exception {
    Object key = ChashKeyGenerator.generateKey("sku", 3);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(key);
    }
    Object read;
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      read = in.readObject();
    }
    assertThat(read).isEqualTo(key).isEqualTo(new SimpleKey("sku", 3));
    assertThat(read.hashCode()).isEqualTo(key.hashCode());
    ChashCache prices = pricesCache();
    assertThat(prices.routingKey(read)).isEqualTo("prices:sku,3");
  }

  @Test
  void routing_argumentsAsTheAspectRoutesThem_noArgumentsAsNone() {
    ChashCache prices = pricesCache();
    assertThat(prices.routingKey(ChashKeyGenerator.generateKey("sku", 3)))
        .isEqualTo("prices:sku,3");
    assertThat(prices.routingKey(ChashKeyGenerator.generateKey("sku"))).isEqualTo("prices:sku");
    assertThat(prices.routingKey(SimpleKey.EMPTY))
        .isEqualTo(prices.routingKey(ChashKeyGenerator.generateKey()));
  }

  @Test
  void plainSimpleKeyOfArguments_isRefusedSayingHowToRegisterTheGenerator() {
    ChashCache prices = pricesCache();
    assertThatThrownBy(() -> prices.routingKey(new SimpleKey("sku", 3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cache \"prices\"")
        .hasMessageContaining("ChashKeyGenerator")
        .hasMessageContaining("CachingConfigurer");
  }

  /** A plain Spring context that kept Spring's default key generator. */
  @Configuration(proxyBeanMethods = false)
  @EnableCaching
  static class DefaultKeys {
    @Bean
    CatalogService catalog() {
      return new CatalogService();
    }
  }

  @Test
  void springsDefaultGenerator_failsTheCallOfSeveralArguments_notOfOne() {
    manager = ChashCacheManagerTest.threeShards();
    context = new AnnotationConfigApplicationContext();
    context.register(DefaultKeys.class);
    context.registerBean(CacheManager.class, () -> new ChashCacheManager(manager, true));
    context.refresh();
    CatalogService catalog = context.getBean(CatalogService.class);
    assertThatThrownBy(() -> catalog.price("p1", "EUR"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ChashKeyGenerator");
    assertThat(catalog.runs("price")).isZero();
    assertThat(catalog.product(7)).isEqualTo("product-7");
    assertThat(catalog.product(7)).isEqualTo("product-7");
    assertThat(catalog.runs("product")).isEqualTo(1);
  }

  private ChashCache pricesCache() {
    if (manager == null) {
      manager = ChashCacheManagerTest.threeShards();
    }
    return (ChashCache) new ChashCacheManager(manager, true).getCache("prices");
  }
}
