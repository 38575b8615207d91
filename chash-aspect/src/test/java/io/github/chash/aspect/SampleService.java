package io.github.chash.aspect;

import io.github.chash.testing.CollidingKeys;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Annotated methods for the aspect's tests; woven at test-compile time by ajc. */
class SampleService {
  /** Body runs per method name and key. */
  final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

  /** While set, holds {@link #slow} inside its body until the test has seen every caller wait. */
  volatile CountDownLatch slowGate;

  volatile CompletableFuture<String> nextFuture;

  record Customer(String id, String region) {}

  static final class NoToString {}

  int runs(String method, Object key) {
    AtomicInteger n = runs.get(method + ":" + key);
    return n == null ? 0 : n.get();
  }

  private void ran(String method, Object key) {
    runs.computeIfAbsent(method + ":" + key, k -> new AtomicInteger()).incrementAndGet();
  }

  @ShardedCacheable(cache = "users", key = "#id")
  String user(String id) {
    ran("user", id);
    return "user-" + id;
  }

  @ShardedCacheable(cache = "users", key = "#p0")
  String userById(long id) {
    ran("userById", id);
    return "user #" + id;
  }

  @ShardedCacheable(cache = "users", key = "'n' + #id", condition = "#id > 0")
  String userByNumber(long id) {
    ran("userByNumber", id);
    return "number " + id;
  }

  @ShardedCacheable(cache = "users")
  String userByDefaultKey(long id) {
    ran("userByDefaultKey", id);
    return "default " + id;
  }

  @ShardedCachePut(cache = "users", key = "#id")
  String saveUser(String id, String value) {
    ran("saveUser", id);
    return value;
  }

  @ShardedCacheEvict(cache = "users", key = "#id")
  void deleteUser(String id) {
    ran("deleteUser", id);
  }

  @ShardedCacheEvict(cache = "users", key = "#id", beforeInvocation = true)
  void deleteUserOrFail(String id) {
    ran("deleteUserOrFail", id);
    throw new IllegalStateException("failed after evicting");
  }

  @ShardedCacheEvict(cache = "users", key = "#id")
  void deleteUserFailing(String id) {
    throw new IllegalStateException("failed before evicting");
  }

  @ShardedCacheable(cache = "orders", key = "#customer.region + '/' + #customer.id")
  String orders(Customer customer) {
    ran("orders", customer.id());
    return "orders of " + customer.id();
  }

  @ShardedCacheable(cache = "orders")
  String ordersOf(String customer, int year) {
    ran("ordersOf", customer + year);
    return customer + "@" + year;
  }

  @ShardedCacheable(cache = "users")
  String byObject(Object key) {
    ran("byObject", "x");
    return "x";
  }

  /** The default key of one argument of any type: its canonical form. */
  @ShardedCacheable(cache = "orders")
  String anyKey(Object key) {
    ran("anyKey", CollidingKeys.described(key));
    return "any " + CollidingKeys.described(key);
  }

  /** The same key through a key expression. */
  @ShardedCacheable(cache = "users", key = "#key")
  String anyKeyByExpression(Object key) {
    ran("anyKeyByExpression", CollidingKeys.described(key));
    return "expr " + CollidingKeys.described(key);
  }

  /** The default key of two arguments: their forms joined. */
  @ShardedCacheable(cache = "users")
  String twoKeys(Object first, String second) {
    ran("twoKeys", CollidingKeys.described(first) + "," + second);
    return "two " + CollidingKeys.described(first) + "," + second;
  }

  @ShardedCacheable(cache = "users", key = "'maybe:' + #id")
  Optional<String> maybe(String id) {
    ran("maybe", id);
    return id.startsWith("none") ? Optional.empty() : Optional.of("found-" + id);
  }

  @ShardedCacheable(cache = "users", key = "'null:' + #id")
  String nullable(String id) {
    ran("nullable", id);
    return null;
  }

  @ShardedCacheable(cache = "users", key = "'nullc:' + #id", cacheNull = true)
  String nullableCached(String id) {
    ran("nullableCached", id);
    return null;
  }

  @ShardedCacheable(cache = "users", key = "'async:' + #id")
  CompletableFuture<String> async(String id) {
    ran("async", id);
    return nextFuture;
  }

  @ShardedCacheable(cache = "users", key = "'asyncSync:' + #id", sync = true)
  CompletableFuture<String> asyncSync(String id) {
    ran("asyncSync", id);
    return nextFuture;
  }

  @ShardedCachePut(cache = "users", key = "'async:' + #id")
  CompletableFuture<String> asyncSave(String id) {
    ran("asyncSave", id);
    return nextFuture;
  }

  @ShardedCacheEvict(cache = "users", key = "'async:' + #id")
  CompletableFuture<String> asyncDelete(String id) {
    ran("asyncDelete", id);
    return nextFuture;
  }

  @ShardedCacheable(cache = "users", key = "'slow:' + #id", sync = true)
  String slow(String id) throws InterruptedException {
    ran("slow", id);
    CountDownLatch gate = slowGate;
    if (gate != null && !gate.await(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the test never opened the gate");
    }
    return "slow-" + id;
  }

  @ShardedCacheable(cache = "nosuchcache", key = "#id")
  String unknownCache(String id) {
    return id;
  }

  @ShardedCacheable(cache = "users", key = "#idd")
  String badKey(String id) {
    ran("badKey", id);
    return id;
  }

  @ShardedCacheable(cache = "users", key = "'ttl:' + #id", ttl = "10x")
  String badTtl(String id) {
    return id;
  }

  @ShardedCacheable(cache = "users", key = "'short:' + #id", ttl = "2h")
  String withTtl(String id) {
    ran("withTtl", id);
    return id;
  }

  @ShardedCacheable(cache = "users", key = "#p0")
  long primitive(String id) {
    ran("primitive", id);
    return id.length();
  }

  // One method per arity the aspect binds differently: none, three (primitives, nulls), five.

  @ShardedCacheable(cache = "users", key = "'config'")
  String config() {
    ran("config", "");
    return "config";
  }

  @ShardedCacheable(cache = "users", key = "'three:' + #a + ':' + #b + ':' + #c")
  String three(String a, int b, Long c) {
    ran("three", a + ":" + b + ":" + c);
    return "three-" + a + "-" + b + "-" + c;
  }

  @ShardedCacheable(cache = "users", key = "'five:' + #p0 + #p1 + #p2 + #p3 + #p4")
  String five(String a, char b, boolean c, double d, byte e) {
    ran("five", "" + a + b + c + d + e);
    return "five-" + a + b + c + d + e;
  }

  /** Failures (a checked exception) are not cached: each call runs again and throws it as is. */
  @ShardedCacheable(cache = "users", key = "'checked:' + #id")
  String checked(String id) throws java.io.IOException {
    ran("checked", id);
    throw new java.io.IOException("no " + id);
  }

  // condition and unless

  @ShardedCacheable(cache = "users", key = "'cond:' + #id", condition = "#id != 'live'")
  String conditional(String id) {
    ran("conditional", id);
    return "cond-" + id;
  }

  @ShardedCacheable(
      cache = "users",
      key = "'unless:' + #id",
      unless = "#result == 'draft'",
      cacheNull = true)
  String unlessDraft(String id) {
    ran("unlessDraft", id);
    return id.equals("none") ? null : id.startsWith("d") ? "draft" : "final-" + id;
  }

  @ShardedCacheable(cache = "users", key = "'unlessOpt:' + #id", unless = "#result == 'draft'")
  Optional<String> unlessOptional(String id) {
    ran("unlessOptional", id);
    return Optional.of(id.startsWith("d") ? "draft" : "final");
  }

  @ShardedCacheable(cache = "users", key = "'unlessAsync:' + #id", unless = "#result == 'draft'")
  CompletableFuture<String> unlessAsync(String id) {
    ran("unlessAsync", id);
    return nextFuture;
  }

  // #result, #root

  @ShardedCachePut(cache = "orders", key = "#result.region + '/' + #result.id")
  Customer register(String region) {
    ran("register", region);
    return new Customer("c-" + region.length(), region);
  }

  @ShardedCachePut(cache = "users", key = "#id", unless = "#result == 'secret'")
  String saveUnlessSecret(String id, String value) {
    return value;
  }

  @ShardedCachePut(cache = "users", key = "#id", condition = "#result != 'skip'")
  String saveUnlessSkipped(String id, String value) {
    return value;
  }

  @ShardedCacheable(cache = "users", key = "#root.methodName + ':' + #id")
  String rooted(String id) {
    ran("rooted", id);
    return "rooted-" + id;
  }

  @ShardedCacheable(cache = "orders", key = "'args:' + #root.args")
  String allArgs(String customer, int year) {
    ran("allArgs", customer + year);
    return customer + year;
  }

  // evictions

  @ShardedCacheEvict(cache = "users", allEntries = true)
  void clearUsers() {
    ran("clearUsers", "");
  }

  @ShardedCacheEvict(cache = "users", key = "#id", condition = "#result")
  boolean deleteIfFound(String id, boolean found) {
    return found;
  }

  @ShardedCacheEvict(cache = "users", key = "#id", condition = "#really", beforeInvocation = true)
  void deleteFirstIf(String id, boolean really) {
    throw new IllegalStateException("failed");
  }

  // several on one method

  @ShardedCacheEvict(cache = "users", key = "#id")
  @ShardedCacheEvict(cache = "orders", key = "#id")
  void deleteEverywhere(String id) {
    ran("deleteEverywhere", id);
  }

  @ShardedCachePut(cache = "users", key = "#id")
  @ShardedCachePut(cache = "orders", key = "'copy:' + #id")
  String saveTwice(String id, String value) {
    ran("saveTwice", id);
    return value;
  }

  @ShardedCacheable(cache = "users", key = "'l1:' + #id")
  @ShardedCacheable(cache = "orders", key = "'l2:' + #id")
  String twoLevels(String id) {
    ran("twoLevels", id);
    return "level-" + id;
  }

  @ShardedCacheable(cache = "users", key = "'combo:' + #id")
  @ShardedCacheEvict(cache = "orders", key = "#id")
  String readAndInvalidate(String id) {
    ran("readAndInvalidate", id);
    return "combo-" + id;
  }

  @ShardedCacheable(cache = "users", key = "#id", sync = true)
  @ShardedCacheEvict(cache = "orders", key = "#id")
  String syncWithOthers(String id) {
    return id;
  }

  @ShardedCacheable(cache = "users", key = "#id")
  @ShardedCachePut(cache = "users", key = "#id")
  String cacheableAndPut(String id) {
    return id;
  }

  @ShardedCacheable(cache = "users", key = "#id", condition = "#id > 3")
  String comparesAStringWithANumber(String id) {
    return id;
  }

  /** Class-level defaults: the cache and the ttl come from {@link ShardedCacheConfig}. */
  @ShardedCacheConfig(cache = "orders", ttl = "2h")
  static class Configured {
    @ShardedCacheable(key = "#id")
    String find(String id) {
      return "configured-" + id;
    }

    @ShardedCachePut(key = "#id", ttl = "5m")
    String save(String id) {
      return "saved-" + id;
    }

    @ShardedCacheEvict(cache = "users", key = "#id")
    void dropUser(String id) {}
  }

  @ShardedCacheConfig(ttl = "2 hours")
  static class BadlyConfigured {
    @ShardedCacheable(cache = "users", key = "#id")
    String find(String id) {
      return id;
    }
  }
}
