package io.github.chash.aspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.aspect.internal.ShardedCacheInterceptor;
import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.testing.CollidingKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ShardedCacheAspectTest {
  private ShardedCacheManager manager;
  private SampleService service;

  @BeforeEach
  void setUp() {
    manager =
        ShardedCaches.builder()
            .node(CacheNodes.local("a", 10_000), 1)
            .node(CacheNodes.local("b", 10_000), 1)
            .node(CacheNodes.local("c", 10_000), 1)
            .cache("users", Duration.ofMinutes(10))
            .cache("orders", null)
            .build();
    ShardedCacheAspect.setManager(manager);
    service = new SampleService();
  }

  @AfterEach
  void tearDown() {
    ShardedCacheAspect.setManager(null);
    manager.close();
  }

  @Test
  void cacheable_runsTheBodyOncePerKey() {
    assertThat(service.user("1")).isEqualTo("user-1");
    assertThat(service.user("1")).isEqualTo("user-1");
    assertThat(service.user("2")).isEqualTo("user-2");
    assertThat(service.runs("user", "1")).isEqualTo(1);
    assertThat(service.runs("user", "2")).isEqualTo(1);
    assertThat(manager.cacheStats().get("users").hitCount()).isEqualTo(1);
    // each miss counted once, though two pieces of advice run on it
    assertThat(manager.cacheStats().get("users").missCount()).isEqualTo(2);
    assertThat(manager.cacheStats().get("users").loadCount()).isEqualTo(2);
  }

  @Test
  void cacheable_everyArityPassesItsArgumentsToTheKeyAndTheBody() {
    for (int i = 0; i < 2; i++) {
      assertThat(service.config()).isEqualTo("config");
      assertThat(service.three("x", 7, null)).isEqualTo("three-x-7-null");
      assertThat(service.three("x", 8, 9L)).isEqualTo("three-x-8-9");
      assertThat(service.five("f", 'c', true, 1.5, (byte) 3)).isEqualTo("five-fctrue1.53");
    }
    assertThat(service.runs("config", "")).isEqualTo(1);
    assertThat(service.runs("three", "x:7:null")).isEqualTo(1);
    assertThat(service.runs("three", "x:8:9")).isEqualTo(1);
    assertThat(service.runs("five", "fctrue1.53")).isEqualTo(1);
    assertThat(nodeValue("users:config")).isEqualTo("config");
    assertThat(nodeValue("users:three:x:8:9")).isEqualTo("three-x-8-9");
    assertThat(nodeValue("users:five:fctrue1.53")).isEqualTo("five-fctrue1.53");
  }

  @Test
  void cacheable_longParameterIsBoundUnboxedAndKeyedByItsDecimal() {
    long big = 1L << 40; // beyond the boxes Long.valueOf caches
    for (int i = 0; i < 2; i++) {
      assertThat(service.userById(big)).isEqualTo("user #" + big);
      assertThat(service.userById(-7)).isEqualTo("user #-7");
      assertThat(service.userByNumber(big)).isEqualTo("number " + big);
      assertThat(service.userByNumber(-3)).isEqualTo("number -3");
      assertThat(service.userByDefaultKey(5)).isEqualTo("default 5");
      // the default key of one argument is that argument: the entry #p0 cached
      assertThat(service.userByDefaultKey(big)).isEqualTo("user #" + big);
    }
    assertThat(service.runs("userById", big)).isEqualTo(1);
    assertThat(service.runs("userById", -7L)).isEqualTo(1);
    assertThat(service.runs("userByNumber", big)).isEqualTo(1);
    assertThat(service.runs("userByNumber", -3L)).isEqualTo(2); // the condition is false
    assertThat(service.runs("userByDefaultKey", 5L)).isEqualTo(1);
    assertThat(service.runs("userByDefaultKey", big)).isEqualTo(0);
    assertThat(nodeValue("users:" + big)).isEqualTo("user #" + big);
    assertThat(nodeValue("users:-7")).isEqualTo("user #-7");
    assertThat(nodeValue("users:n" + big)).isEqualTo("number " + big);
  }

  @Test
  void cacheable_argumentsThatOnceSharedAKey_getTheirOwnValues() {
    for (Object[] pair : CollidingKeys.pairs()) {
      String what = java.util.Arrays.deepToString(pair);
      for (Object key : pair) {
        String d = CollidingKeys.described(key);
        for (int i = 0; i < 2; i++) {
          assertThat(service.anyKey(key)).as(what).isEqualTo("any " + d);
          assertThat(service.anyKeyByExpression(key)).as(what).isEqualTo("expr " + d);
        }
        assertThat(service.runs("anyKey", d)).as(what).isEqualTo(1);
        assertThat(service.runs("anyKeyByExpression", d)).as(what).isEqualTo(1);
      }
      manager.cache("users").clear();
      manager.cache("orders").clear();
      service.runs.clear();
    }
    // (null, "x") and ("null", "x") as two arguments
    for (int i = 0; i < 2; i++) {
      assertThat(service.twoKeys(null, "x")).isEqualTo("two null,x");
      assertThat(service.twoKeys("null", "x")).isEqualTo("two String null,x");
    }
    assertThat(service.runs("twoKeys", "null,x")).isEqualTo(1);
    assertThat(service.runs("twoKeys", "String null,x")).isEqualTo(1);
  }

  @Test
  void cacheable_checkedExceptionReachesTheCallerAsIsAndIsNotCached() {
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> service.checked("1"))
          .isExactlyInstanceOf(java.io.IOException.class)
          .hasMessage("no 1");
    }
    assertThat(service.runs("checked", "1")).isEqualTo(2);
  }

  @Test
  void cacheable_storesUnderTheRoutingKeyOnTheNodeTheRingNames() {
    service.user("42");
    String node = manager.ring().locate("users:42").id();
    assertThat(manager.node(node).get("users:42", ValueType.OBJECT)).isEqualTo("user-42");
  }

  @Test
  void cacheable_propertyPathAndAllArgumentKeys() {
    SampleService.Customer c = new SampleService.Customer("c7", "eu");
    service.orders(c);
    service.orders(new SampleService.Customer("c7", "eu"));
    assertThat(service.runs("orders", "c7")).isEqualTo(1);
    assertThat(nodeValue("orders:eu/c7")).isEqualTo("orders of c7");

    service.ordersOf("bob", 2024);
    service.ordersOf("bob", 2024);
    service.ordersOf("bob", 2025);
    assertThat(service.runs("ordersOf", "bob2024")).isEqualTo(1);
    assertThat(nodeValue("orders:bob,2024")).isEqualTo("bob@2024");
  }

  @Test
  void put_replacesTheCachedValue() {
    service.user("1");
    assertThat(service.saveUser("1", "changed")).isEqualTo("changed");
    assertThat(service.user("1")).isEqualTo("changed");
    assertThat(service.runs("user", "1")).isEqualTo(1);
  }

  @Test
  void evict_removesTheKeySoTheBodyRunsAgain() {
    service.user("1");
    service.deleteUser("1");
    service.user("1");
    assertThat(service.runs("user", "1")).isEqualTo(2);
  }

  @Test
  void evict_afterInvocationKeepsTheEntryWhenTheMethodThrows() {
    service.user("1");
    assertThatThrownBy(() -> service.deleteUserFailing("1")).hasMessage("failed before evicting");
    service.user("1");
    assertThat(service.runs("user", "1")).isEqualTo(1);
  }

  @Test
  void evict_beforeInvocationEvictsEvenWhenTheMethodThrows() {
    service.user("1");
    assertThatThrownBy(() -> service.deleteUserOrFail("1")).hasMessage("failed after evicting");
    service.user("1");
    assertThat(service.runs("user", "1")).isEqualTo(2);
  }

  @Test
  void cacheable_optionalCachesTheContentAndNotEmpty() {
    assertThat(service.maybe("1")).contains("found-1");
    assertThat(service.maybe("1")).contains("found-1");
    assertThat(service.runs("maybe", "1")).isEqualTo(1);
    assertThat(nodeValue("users:maybe:1")).isEqualTo("found-1");

    assertThat(service.maybe("none")).isEmpty();
    assertThat(service.maybe("none")).isEqualTo(Optional.empty());
    assertThat(service.runs("maybe", "none")).isEqualTo(2);
  }

  @Test
  void cacheable_nullIsCachedOnlyWithCacheNull() {
    assertThat(service.nullable("1")).isNull();
    assertThat(service.nullable("1")).isNull();
    assertThat(service.runs("nullable", "1")).isEqualTo(2);

    assertThat(service.nullableCached("1")).isNull();
    assertThat(service.nullableCached("1")).isNull();
    assertThat(service.runs("nullableCached", "1")).isEqualTo(1);
  }

  @Test
  void cacheable_futureCachesTheCompletedValueNotTheFuture() throws Exception {
    CompletableFuture<String> pending = new CompletableFuture<>();
    service.nextFuture = pending;
    assertThat(service.async("1")).isSameAs(pending);
    assertThat(nodeValue("users:async:1")).isNull();

    pending.complete("done");
    CompletableFuture<String> hit = service.async("1");
    assertThat(hit).isNotSameAs(pending).isCompletedWithValue("done");
    assertThat(nodeValue("users:async:1")).isEqualTo("done");
    assertThat(service.runs("async", "1")).isEqualTo(1);
  }

  @Test
  void cacheable_failedFutureIsNotCached() {
    service.nextFuture = CompletableFuture.failedFuture(new IllegalStateException("down"));
    assertThat(service.async("2")).isCompletedExceptionally();
    service.nextFuture = CompletableFuture.completedFuture("up");
    assertThat(service.async("2")).isCompletedWithValue("up");
    assertThat(service.runs("async", "2")).isEqualTo(2);
  }

  @Test
  void cacheable_syncFutureSharesTheRunningComputation() {
    CompletableFuture<String> pending = new CompletableFuture<>();
    service.nextFuture = pending;
    CompletableFuture<String> first = service.asyncSync("1");
    CompletableFuture<String> second = service.asyncSync("1");
    assertThat(service.runs("asyncSync", "1")).isEqualTo(1);
    assertThat(second).isNotDone();
    pending.complete("v");
    assertThat(first).isCompletedWithValue("v");
    assertThat(second).isCompletedWithValue("v");
    assertThat(service.asyncSync("1")).isCompletedWithValue("v");
    assertThat(service.runs("asyncSync", "1")).isEqualTo(1);
  }

  @Test
  void put_futureStoresTheValueWhenItCompletes() {
    CompletableFuture<String> pending = new CompletableFuture<>();
    service.nextFuture = pending;
    service.asyncSave("3");
    assertThat(nodeValue("users:async:3")).isNull();
    pending.complete("saved");
    assertThat(nodeValue("users:async:3")).isEqualTo("saved");
  }

  @Test
  void evict_futureEvictsWhenItCompletesNormallyOnly() {
    service.nextFuture = CompletableFuture.completedFuture("v");
    service.async("4");
    assertThat(nodeValue("users:async:4")).isEqualTo("v");

    service.nextFuture = CompletableFuture.failedFuture(new IllegalStateException("update failed"));
    service.asyncDelete("4");
    assertThat(nodeValue("users:async:4")).isEqualTo("v");

    CompletableFuture<String> pending = new CompletableFuture<>();
    service.nextFuture = pending;
    service.asyncDelete("4");
    assertThat(nodeValue("users:async:4")).isEqualTo("v");
    pending.complete("deleted");
    assertThat(nodeValue("users:async:4")).isNull();
  }

  @Test
  void cacheable_syncComputesOncePerKeyUnderConcurrentMisses() throws Exception {
    // a first call compiles the method's annotations, so that no caller below waits on that
    assertThat(service.slow("warm-up")).isEqualTo("slow-warm-up");
    CountDownLatch gate = new CountDownLatch(1);
    service.slowGate = gate;
    int callers = 8;
    List<CompletableFuture<String>> results = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      CompletableFuture<String> result = new CompletableFuture<>();
      results.add(result);
      Thread caller =
          new Thread(
              () -> {
                try {
                  result.complete(service.slow("k"));
                } catch (Throwable e) {
                  result.completeExceptionally(e);
                }
              });
      threads.add(caller);
      caller.start();
    }
    try {
      // the body holds its caller at the gate until every caller is parked, in the body or
      // waiting for the one load: only then is the overlap certain
      Awaitility.await("callers parked within 10 s")
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(1))
          .atMost(Duration.ofSeconds(10))
          .failFast(
              "a caller ended before the gate opened",
              () -> results.stream().anyMatch(CompletableFuture::isDone))
          .until(() -> threads.stream().allMatch(ShardedCacheAspectTest::parked));
      // without sync every caller would be in the body now
      assertThat(service.runs("slow", "k")).as("callers in the body").isEqualTo(1);
    } finally {
      gate.countDown();
    }
    for (CompletableFuture<String> r : results) {
      assertThat(r.get(10, TimeUnit.SECONDS)).isEqualTo("slow-k");
    }
    assertThat(service.runs("slow", "k")).isEqualTo(1);
  }

  private static boolean parked(Thread t) {
    Thread.State state = t.getState();
    return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
  }

  @Test
  void cacheable_primitiveResult() {
    assertThat(service.primitive("abc")).isEqualTo(3L);
    assertThat(service.primitive("abc")).isEqualTo(3L);
    assertThat(service.runs("primitive", "abc")).isEqualTo(1);
  }

  @Test
  void cacheable_unknownCacheFailsNamingTheMethod() {
    assertThatThrownBy(() -> service.unknownCache("1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("SampleService.unknownCache(String): ")
        .hasMessageContaining("nosuchcache");
  }

  @Test
  void cacheable_badKeyExpressionFailsEveryCallNamingMethodExpressionAndPosition() {
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> service.badKey("1"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "SampleService.badKey(String): @ShardedCacheable key expression \"#idd\" at"
                  + " position 1: no parameter named idd; parameters are: id");
    }
    assertThat(service.runs("badKey", "1")).isZero();
  }

  @Test
  void cacheable_badTtlFailsNamingTheMethod() {
    assertThatThrownBy(() -> service.badTtl("1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(
            "SampleService.badTtl(String): @ShardedCacheable ttl must be a duration like 100ms, 30s, 10m, 2h or 1d, was \"10x\"");
  }

  @Test
  void cacheable_ttlOverrideStillCaches() {
    service.withTtl("1");
    service.withTtl("1");
    assertThat(service.runs("withTtl", "1")).isEqualTo(1);
  }

  @Test
  void cacheable_identityToStringKeyFailsNamingMethodAndParameter() {
    assertThatThrownBy(() -> service.byObject(new SampleService.NoToString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("key of SampleService.byObject(key) has no stable string form");
  }

  @Test
  void cacheable_backendFailureNeverReachesTheCaller() {
    ShardedCacheManager broken =
        ShardedCaches.builder().node(new FailingNode("down"), 1).cache("users", null).build();
    ShardedCacheAspect.setManager(broken);
    try {
      assertThat(service.user("1")).isEqualTo("user-1");
      assertThat(service.user("1")).isEqualTo("user-1");
      assertThat(service.saveUser("1", "v")).isEqualTo("v");
      service.deleteUser("1");
      assertThat(service.runs("user", "1")).isEqualTo(2);
    } finally {
      broken.close();
    }
  }

  @Test
  void manager_programmaticComesBeforeTheSpringProvider() {
    ShardedCacheManager other =
        ShardedCaches.builder().node(CacheNodes.local("x", 10), 1).cache("users", null).build();
    try {
      ShardedCacheInterceptor interceptor = new ShardedCacheInterceptor(() -> other);
      assertThat(interceptor.manager()).isSameAs(manager);
      assertThat(ShardedCacheAspect.manager()).isSameAs(manager);
      ShardedCacheAspect.setManager(null);
      assertThat(interceptor.manager()).isSameAs(other);
    } finally {
      other.close();
    }
  }

  @Test
  void manager_switchingManagersRebindsTheMethods() {
    service.user("1");
    ShardedCacheManager other =
        ShardedCaches.builder().node(CacheNodes.local("x", 10), 1).cache("users", null).build();
    try {
      ShardedCacheAspect.setManager(other);
      service.user("1");
      assertThat(service.runs("user", "1")).isEqualTo(2);
      assertThat(other.node("x").get("users:1", ValueType.OBJECT)).isEqualTo("user-1");
    } finally {
      other.close();
    }
  }

  @Test
  void aopXml_declaresTheAspectForLoadTimeWeaving() throws Exception {
    try (var in = ShardedCacheAspect.class.getResourceAsStream("/META-INF/aop.xml")) {
      assertThat(in).isNotNull();
      String xml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertThat(xml).contains("<aspect name=\"io.github.chash.aspect.ShardedCacheAspect\"/>");
    }
  }

  private Object nodeValue(String routingKey) {
    return manager.node(manager.ring().locate(routingKey).id()).get(routingKey, ValueType.OBJECT);
  }

  /** A node whose backend is down: every operation fails. */
  static final class FailingNode implements CacheNode {
    private final String id;

    FailingNode(String id) {
      this.id = id;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public Object get(String key, ValueType type) {
      throw new CacheNodeException(id, "connection refused", null);
    }

    @Override
    public void put(String key, Object value, Duration ttl) {
      throw new CacheNodeException(id, "connection refused", null);
    }

    @Override
    public void evict(String key) {
      throw new CacheNodeException(id, "connection refused", null);
    }

    @Override
    public void clear() {
      throw new CacheNodeException(id, "connection refused", null);
    }

    @Override
    public void ping() {
      throw new CacheNodeException(id, "connection refused", null);
    }

    @Override
    public long estimatedSize() {
      return -1;
    }

    @Override
    public void close() {}
  }
}
