package io.github.chash.aspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The annotation features beyond a plain key: condition, unless, #result, #root, allEntries,
 * several annotations on one method, class-level defaults. The service is woven by ajc at
 * test-compile time.
 */
class ShardedCacheFeaturesTest {
  private final Map<String, Duration> ttls = new ConcurrentHashMap<>();
  private ShardedCacheManager manager;
  private SampleService service;

  @BeforeEach
  void setUp() {
    var builder = ShardedCaches.builder();
    for (String id : new String[] {"a", "b", "c"}) {
      builder.node(new TtlRecordingNode(CacheNodes.local(id, 10_000), ttls), 1);
    }
    manager = builder.cache("users", Duration.ofMinutes(10)).cache("orders", null).build();
    ShardedCacheAspect.setManager(manager);
    service = new SampleService();
  }

  @AfterEach
  void tearDown() {
    ShardedCacheAspect.setManager(null);
    manager.close();
  }

  @Test
  void condition_falseBypassesTheCacheEntirely() {
    service.conditional("live");
    service.conditional("live");
    assertThat(service.runs("conditional", "live")).isEqualTo(2);
    assertThat(nodeValue("users:cond:live")).isNull();
    assertThat(manager.cacheStats().get("users").missCount()).isZero();

    service.conditional("k");
    service.conditional("k");
    assertThat(service.runs("conditional", "k")).isEqualTo(1);
  }

  @Test
  void unless_refusesToStoreTheResultItNames() {
    assertThat(service.unlessDraft("d1")).isEqualTo("draft");
    assertThat(service.unlessDraft("d1")).isEqualTo("draft");
    assertThat(service.runs("unlessDraft", "d1")).isEqualTo(2);
    assertThat(nodeValue("users:unless:d1")).isNull();
    // the refused call still counts as a load
    assertThat(manager.cacheStats().get("users").loadCount()).isEqualTo(2);

    assertThat(service.unlessDraft("f")).isEqualTo("final-f");
    assertThat(service.unlessDraft("f")).isEqualTo("final-f");
    assertThat(service.runs("unlessDraft", "f")).isEqualTo(1);

    // cacheNull with unless: a null result is still cached
    assertThat(service.unlessDraft("none")).isNull();
    assertThat(service.unlessDraft("none")).isNull();
    assertThat(service.runs("unlessDraft", "none")).isEqualTo(1);
  }

  @Test
  void unless_seesTheOptionalsContentAndTheFuturesValue() {
    assertThat(service.unlessOptional("d")).contains("draft");
    assertThat(service.unlessOptional("d")).contains("draft");
    assertThat(service.runs("unlessOptional", "d")).isEqualTo(2);
    service.unlessOptional("x");
    service.unlessOptional("x");
    assertThat(service.runs("unlessOptional", "x")).isEqualTo(1);

    service.nextFuture = CompletableFuture.completedFuture("draft");
    service.unlessAsync("1");
    assertThat(nodeValue("users:unlessAsync:1")).isNull();
    service.nextFuture = CompletableFuture.completedFuture("done");
    service.unlessAsync("2");
    assertThat(nodeValue("users:unlessAsync:2")).isEqualTo("done");
  }

  @Test
  void put_keyFromTheResult() {
    SampleService.Customer c = service.register("emea");
    assertThat(nodeValue("orders:emea/c-4")).isEqualTo(c);
  }

  @Test
  void put_unlessEvictsSoTheOlderValueIsNotServed() {
    service.saveUser("1", "old");
    service.saveUnlessSecret("1", "secret");
    assertThat(nodeValue("users:1")).isNull();
    service.saveUnlessSecret("1", "open");
    assertThat(nodeValue("users:1")).isEqualTo("open");
  }

  @Test
  void put_falseConditionLeavesTheCacheAlone() {
    service.saveUser("1", "old");
    service.saveUnlessSkipped("1", "skip");
    assertThat(nodeValue("users:1")).isEqualTo("old");
    service.saveUnlessSkipped("1", "new");
    assertThat(nodeValue("users:1")).isEqualTo("new");
  }

  @Test
  void root_methodNameAndArgs() {
    service.rooted("7");
    assertThat(nodeValue("users:rooted:7")).isEqualTo("rooted-7");
    service.allArgs("bob", 2024);
    assertThat(nodeValue("orders:args:bob,2024")).isEqualTo("bob2024");
  }

  @Test
  void evict_allEntriesClearsThisCacheOnEveryNodeAndNoOther() {
    for (int i = 0; i < 50; i++) {
      service.user("u" + i);
      service.ordersOf("o" + i, 2024);
    }
    service.clearUsers();
    for (int i = 0; i < 50; i++) {
      assertThat(nodeValue("users:u" + i)).isNull();
      assertThat(nodeValue("orders:o" + i + ",2024")).isNotNull();
    }
    service.user("u1");
    assertThat(service.runs("user", "u1")).isEqualTo(2);
  }

  @Test
  void evict_conditionWithTheResultAndBeforeInvocation() {
    service.saveUser("1", "v");
    service.deleteIfFound("1", false);
    assertThat(nodeValue("users:1")).isEqualTo("v");
    service.deleteIfFound("1", true);
    assertThat(nodeValue("users:1")).isNull();

    service.saveUser("2", "v");
    assertThatThrownBy(() -> service.deleteFirstIf("2", false)).hasMessage("failed");
    assertThat(nodeValue("users:2")).isEqualTo("v");
    assertThatThrownBy(() -> service.deleteFirstIf("2", true)).hasMessage("failed");
    assertThat(nodeValue("users:2")).isNull();
  }

  @Test
  void repeated_evictionsAndPutsEachTakeEffect() {
    service.saveTwice("9", "nine");
    assertThat(nodeValue("users:9")).isEqualTo("nine");
    assertThat(nodeValue("orders:copy:9")).isEqualTo("nine");
    assertThat(service.runs("saveTwice", "9")).isEqualTo(1);

    InterceptedCache.of(manager.cache("orders")).put("orders:9", "order");
    service.deleteEverywhere("9");
    assertThat(nodeValue("users:9")).isNull();
    assertThat(nodeValue("orders:9")).isNull();
    assertThat(service.runs("deleteEverywhere", "9")).isEqualTo(1);
  }

  @Test
  void repeated_cacheablesAnswerFromTheFirstThatHoldsTheKeyAndFillTheOnesBefore() {
    InterceptedCache.of(manager.cache("orders")).put("orders:l2:5", "from-l2");
    assertThat(service.twoLevels("5")).isEqualTo("from-l2");
    assertThat(nodeValue("users:l1:5")).isEqualTo("from-l2");
    assertThat(service.runs("twoLevels", "5")).isZero();

    assertThat(service.twoLevels("6")).isEqualTo("level-6");
    assertThat(nodeValue("users:l1:6")).isEqualTo("level-6");
    assertThat(nodeValue("orders:l2:6")).isEqualTo("level-6");
    assertThat(service.runs("twoLevels", "6")).isEqualTo(1);
  }

  @Test
  void repeated_evictionAfterACacheableRunsOnHitsToo() {
    InterceptedCache.of(manager.cache("orders")).put("orders:3", "order");
    service.readAndInvalidate("3");
    assertThat(nodeValue("orders:3")).isNull();
    InterceptedCache.of(manager.cache("orders")).put("orders:3", "order");
    service.readAndInvalidate("3");
    assertThat(service.runs("readAndInvalidate", "3")).isEqualTo(1);
    assertThat(nodeValue("orders:3")).isNull();
  }

  @Test
  void rules_contradictionsFailTheCallNamingTheMethod() {
    assertThatThrownBy(() -> service.syncWithOthers("1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "SampleService.syncWithOthers(String): @ShardedCacheable sync = true must be the"
                + " method's only chash annotation; it has 2");
    assertThatThrownBy(() -> service.cacheableAndPut("1"))
        .hasMessageStartingWith(
            "SampleService.cacheableAndPut(String): @ShardedCacheable and @ShardedCachePut on one"
                + " method contradict each other");
    assertThatThrownBy(() -> service.comparesAStringWithANumber("1"))
        .hasMessage(
            "SampleService.comparesAStringWithANumber(String): @ShardedCacheable condition \"#id"
                + " > 3\" at position 5: cannot order #id (String) and the number 3");
  }

  @Test
  void config_classDefaultsForCacheAndTtl() {
    SampleService.Configured configured = new SampleService.Configured();
    configured.find("1");
    assertThat(nodeValue("orders:1")).isEqualTo("configured-1");
    assertThat(ttls).containsEntry("orders:1", Duration.ofHours(2));
    configured.save("2");
    assertThat(ttls).containsEntry("orders:2", Duration.ofMinutes(5));
    service.saveUser("3", "v");
    configured.dropUser("3");
    assertThat(nodeValue("users:3")).isNull();
  }

  @Test
  void config_invalidClassTtlFailsNamingTheAnnotation() {
    assertThatThrownBy(() -> new SampleService.BadlyConfigured().find("1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(
            "BadlyConfigured.find(String): @ShardedCacheConfig ttl must be a duration like 100ms, 30s, 10m, 2h or 1d, was \"2 hours\"");
  }

  @Test
  void optionalAndPlainHitsAreUnchangedByUnlessOnOtherMethods() {
    assertThat(service.maybe("1")).contains("found-1");
    assertThat(service.maybe("1")).isEqualTo(Optional.of("found-1"));
    assertThat(service.runs("maybe", "1")).isEqualTo(1);
  }

  private Object nodeValue(String routingKey) {
    return manager.node(manager.ring().locate(routingKey).id()).get(routingKey, ValueType.OBJECT);
  }

  /** A local node that remembers the TTL of each write. */
  static final class TtlRecordingNode implements CacheNode {
    private final CacheNode delegate;
    private final Map<String, Duration> ttls;

    TtlRecordingNode(CacheNode delegate, Map<String, Duration> ttls) {
      this.delegate = delegate;
      this.ttls = ttls;
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public Object get(String key, ValueType type) {
      return delegate.get(key, type);
    }

    @Override
    public void put(String key, Object value, Duration ttl) {
      if (ttl != null) {
        ttls.put(key, ttl);
      }
      delegate.put(key, value, ttl);
    }

    @Override
    public void evict(String key) {
      delegate.evict(key);
    }

    @Override
    public void clear() {
      delegate.clear();
    }

    @Override
    public void clear(String routingKeyPrefix) {
      delegate.clear(routingKeyPrefix);
    }

    @Override
    public void ping() {
      delegate.ping();
    }

    @Override
    public long estimatedSize() {
      return delegate.estimatedSize();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
