package io.github.chash.aspect;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Annotated methods for the aspect's tests; woven at test-compile time by ajc. */
class SampleService {
  /** Body runs per method name and key. */
  final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

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
    Thread.sleep(50);
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
}
