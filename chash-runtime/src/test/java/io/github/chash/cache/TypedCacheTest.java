package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.FailoverConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.testing.CollidingKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TypedCacheTest {
  record Product(long id, String name) {}

  private final Map<String, FaultyNode> nodes = new LinkedHashMap<>();
  private ShardedCacheManager manager;
  private TypedCache<Long, Product> products;

  @BeforeEach
  void start() {
    ShardedCaches.Builder builder =
        ShardedCaches.builder()
            .scheduleProbes(false)
            .failover(
                new FailoverConfig(
                    3, Duration.ofMinutes(1), Duration.ofMillis(100), OnRejoin.FLUSH))
            .cache("products", Duration.ofMinutes(5));
    for (String id : List.of("a", "b", "c")) {
      FaultyNode node = new FaultyNode(CacheNodes.local(id, 10_000));
      nodes.put(id, node);
      builder.node(node, 1);
    }
    manager = builder.build();
    products = manager.cache("products").typed(Long.class, Product.class);
  }

  @AfterEach
  void stop() {
    manager.close();
  }

  private static Product product(long id) {
    return new Product(id, "p" + id);
  }

  /**
   * Keys that shared one canonical form (issue 43) are different entries: what is cached for one is
   * a miss for the other, on the nodes the ring names (local nodes store the routing key as is).
   */
  @Test
  void keysThatOnceCollided_areDifferentEntries() {
    TypedCache<Object, String> any = manager.cache("products").typed(String.class);
    for (Object[] pair : CollidingKeys.pairs()) {
      if (pair[0] == null) {
        continue; // a typed cache refuses a null key; a null inside a list is a pair of its own
      }
      any.clear();
      String what = java.util.Arrays.deepToString(pair);
      any.put(pair[0], "first");
      assertThat(any.getIfPresent(pair[1])).as(what).isNull();
      assertThat(any.get(pair[1], k -> "second")).as(what).isEqualTo("second");
      assertThat(any.getIfPresent(pair[0])).as(what).isEqualTo("first");
      any.evict(pair[1]);
      assertThat(any.getIfPresent(pair[0])).as(what).isEqualTo("first");
    }
  }

  @Test
  void get_withLoader_loadsOnceThenHits() {
    AtomicInteger loads = new AtomicInteger();
    assertThat(
            products.get(
                7L,
                id -> {
                  loads.incrementAndGet();
                  return product(id);
                }))
        .isEqualTo(product(7));
    assertThat(
            products.get(
                7L,
                id -> {
                  loads.incrementAndGet();
                  return product(id);
                }))
        .isEqualTo(product(7));
    assertThat(loads).hasValue(1);
    assertThat(products.getIfPresent(7L)).isEqualTo(product(7));
    assertThat(products.getIfPresent(8L)).isNull();
    // the same key as the annotations give it: "products:7"
    String home = manager.ring().locate("products:7").id();
    assertThat(nodes.get(home).delegate.get("products:7", ValueType.OBJECT)).isEqualTo(product(7));
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void aKeyOfAnotherType_isRefusedNamingTheCacheAndBothTypes() {
    TypedCache raw = products; // erased generics: nothing else stops a String key
    assertThatThrownBy(() -> raw.getIfPresent("7"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "a key of cache \"products\" must be a java.lang.Long (the view's key type), was a"
                + " java.lang.String");
    assertThatThrownBy(() -> raw.put("7", product(7))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> raw.putAll(Map.of("7", product(7))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> raw.getAll(List.of(7L, "8")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> raw.evict(7)).isInstanceOf(IllegalArgumentException.class);
    assertThat(products.getIfPresent(7L)).isNull(); // the refused writes stored nothing
    // a primitive key type means its wrapper; typed(Class) takes any key with a canonical form
    TypedCache<Long, Product> primitive =
        manager.cache("products").typed(long.class, Product.class);
    assertThat(primitive.get(7L, this::productOf)).isEqualTo(product(7));
    assertThat(manager.cache("products").typed(Product.class).getIfPresent(7L))
        .isEqualTo(product(7));
  }

  private Product productOf(long id) {
    return product(id);
  }

  @Test
  void get_loaderReturningNull_storesNothingAndLoaderExceptionsPassThrough() {
    assertThat(products.get(1L, id -> null)).isNull();
    assertThat(products.getIfPresent(1L)).isNull();
    IllegalStateException boom = new IllegalStateException("db down");
    assertThatThrownBy(
            () ->
                products.get(
                    2L,
                    id -> {
                      throw boom;
                    }))
        .isSameAs(boom);
    assertThatThrownBy(() -> products.put(3L, null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> products.getIfPresent(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void getAll_readsPresentKeysAndLoadsTheRestInOneCall() {
    products.put(1L, product(1));
    products.put(2L, product(2));
    List<Set<Long>> loaderCalls = new ArrayList<>();
    Map<Long, Product> all =
        products.getAll(
            List.of(1L, 2L, 3L, 4L, 3L),
            missing -> {
              loaderCalls.add(Set.copyOf(missing));
              Map<Long, Product> loaded = new HashMap<>();
              missing.forEach(id -> loaded.put(id, id == 4 ? null : product(id)));
              return loaded;
            });

    assertThat(all).containsOnlyKeys(1L, 2L, 3L).containsEntry(3L, product(3));
    assertThat(loaderCalls).containsExactly(Set.of(3L, 4L));
    assertThat(products.getAll(List.of(1L, 2L, 3L, 4L))).containsOnlyKeys(1L, 2L, 3L);
    CacheStats stats = products.stats();
    assertThat(stats.loadCount()).isEqualTo(1);
    assertThat(stats.hitCount()).isEqualTo(2 + 3);
  }

  @Test
  void putAll_writesEveryEntryToItsHome() {
    Map<Long, Product> values = new LinkedHashMap<>();
    for (long id = 0; id < 100; id++) {
      values.put(id, product(id));
    }
    products.putAll(values);
    for (long id = 0; id < 100; id++) {
      String key = "products:" + id;
      String home = manager.ring().locate(key).id();
      assertThat(nodes.get(home).delegate.get(key, ValueType.OBJECT)).isEqualTo(product(id));
    }
    assertThat(products.getAll(values.keySet())).isEqualTo(values);
    assertThat(products.stats().putCount()).isEqualTo(100);
  }

  @Test
  void getAll_aFailingNodesKeysAreMissesAndLoaded() {
    Map<Long, Product> values = new LinkedHashMap<>();
    for (long id = 0; id < 30; id++) {
      values.put(id, product(id));
    }
    products.putAll(values);
    nodes.get("b").failing(true);
    AtomicInteger loaded = new AtomicInteger();
    Map<Long, Product> all =
        products.getAll(
            values.keySet(),
            missing -> {
              loaded.addAndGet(missing.size());
              Map<Long, Product> out = new HashMap<>();
              missing.forEach(id -> out.put(id, product(id)));
              return out;
            });
    assertThat(all).isEqualTo(values);
    long onB =
        values.keySet().stream()
            .filter(id -> manager.ring().locate("products:" + id).id().equals("b"))
            .count();
    assertThat(loaded).hasValue((int) onB);
    assertThat(manager.nodeStats().get("b").errorCount()).isEqualTo(1);
  }

  @Test
  void putDuringBulkLoad_isNotOverwrittenByTheLoadedValue() {
    Map<Long, Product> all =
        products.getAll(
            List.of(5L),
            missing -> {
              products.put(5L, new Product(5, "newer")); // a write lands while the load runs
              return Map.of(5L, new Product(5, "older"));
            });
    assertThat(all).containsEntry(5L, new Product(5, "older"));
    assertThat(products.getIfPresent(5L)).isEqualTo(new Product(5, "newer"));
  }

  @Test
  void evictAndClear() {
    products.put(1L, product(1));
    products.put(2L, product(2));
    manager.cache("products").typed(Product.class).evict(1L);
    assertThat(products.getIfPresent(1L)).isNull();
    products.clear();
    assertThat(products.getIfPresent(2L)).isNull();
  }
}
