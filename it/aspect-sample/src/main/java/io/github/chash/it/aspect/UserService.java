package io.github.chash.it.aspect;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.aspect.ShardedCachePut;
import io.github.chash.aspect.ShardedCacheable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sample service: a user store whose reads are cached per user id, and a slow report computed
 * once per key even under concurrent misses. It counts how often each body runs, which is what the
 * proof checks. Not final, so Spring can proxy it. Thread-safe.
 */
public class UserService {
  private final ConcurrentHashMap<String, AtomicInteger> bodyRuns = new ConcurrentHashMap<>();

  /** Creates the service. */
  public UserService() {}

  /** Loads a user; cached per id. */
  @ShardedCacheable(cache = "users", key = "#id")
  public User find(long id) {
    ran("find", id);
    return new User(id, "user-" + id);
  }

  /** Stores a user and refreshes its cache entry. */
  @ShardedCachePut(cache = "users", key = "#user.id")
  public User save(User user) {
    ran("save", user.id());
    return user;
  }

  /** Deletes a user and its cache entry. */
  @ShardedCacheEvict(cache = "users", key = "#id")
  public void delete(long id) {
    ran("delete", id);
  }

  /** A slow report, computed once per region and year however many callers miss at once. */
  @ShardedCacheable(cache = "reports", key = "#region + ':' + #year", sync = true)
  public String report(String region, int year) throws InterruptedException {
    ran("report", region + ":" + year);
    Thread.sleep(200);
    return "report " + region + " " + year;
  }

  /** How often a method's body ran for a key. */
  public int bodyRuns(String method, Object key) {
    AtomicInteger n = bodyRuns.get(method + ":" + key);
    return n == null ? 0 : n.get();
  }

  private void ran(String method, Object key) {
    bodyRuns.computeIfAbsent(method + ":" + key, k -> new AtomicInteger()).incrementAndGet();
  }
}
