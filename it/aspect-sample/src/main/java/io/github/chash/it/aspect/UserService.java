package io.github.chash.it.aspect;

import io.github.chash.aspect.ShardedCacheConfig;
import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.aspect.ShardedCachePut;
import io.github.chash.aspect.ShardedCacheable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sample service: a user store whose reads are cached per user id, and a slow report computed
 * once per key even under concurrent misses. It counts how often each body runs, which is what the
 * proof checks. Not final, so Spring can proxy it. Thread-safe.
 *
 * <p>Compiled the Maven default way (debug information, no {@code -parameters}): the woven modes
 * read the {@code #name}s from the debug information; the Spring module compiles these sources
 * again with {@code -parameters}, which proxies need.
 */
@ShardedCacheConfig(cache = "users", ttl = "1h")
public class UserService {
  /** The name {@link #findActive} gives a user it must not cache. */
  public static final String NOBODY = "nobody";

  private final ConcurrentHashMap<String, AtomicInteger> bodyRuns = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong(1000);
  private volatile CountDownLatch reportGate;

  /** Creates the service. */
  public UserService() {}

  /** Loads a user; cached per id (in the class's cache, users). */
  @ShardedCacheable(key = "#id")
  public User find(long id) {
    ran("find", id);
    return new User(id, "user-" + id);
  }

  /**
   * Loads a user, caching positive ids only, and never a user named {@link #NOBODY} (ids divisible
   * by 13).
   */
  @ShardedCacheable(
      key = "'active:' + #id",
      condition = "#id > 0",
      unless = "#result.name == 'nobody'")
  public User findActive(long id) {
    ran("findActive", id);
    return new User(id, id % 13 == 0 ? NOBODY : "user-" + id);
  }

  /** Stores a user and refreshes its cache entry. */
  @ShardedCachePut(key = "#user.id")
  public User save(User user) {
    ran("save", user.id());
    return user;
  }

  /** Creates a user with a new id, and caches it under that id: the key reads the result. */
  @ShardedCachePut(key = "#result.id")
  public User create(String name) {
    long id = nextId.getAndIncrement();
    ran("create", id);
    return new User(id, name);
  }

  /** Deletes a user and its cache entry. */
  @ShardedCacheEvict(key = "#id")
  public void delete(long id) {
    ran("delete", id);
  }

  /** Deletes a user, its entry and its summary: two evictions. */
  @ShardedCacheEvict(key = "#id")
  @ShardedCacheEvict(cache = "reports", key = "#root.methodName + ':' + #id")
  public void purge(long id) {
    ran("purge", id);
  }

  /** A slow report, computed once per region and year however many callers miss at once. */
  @ShardedCacheable(cache = "reports", key = "#region + ':' + #year", sync = true)
  public String report(String region, int year) throws InterruptedException {
    ran("report", region + ":" + year);
    CountDownLatch gate = reportGate;
    if (gate != null && !gate.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the report's gate never opened");
    }
    return "report " + region + " " + year;
  }

  /**
   * Holds every {@link #report} body at {@code gate} until it opens (a test's way to have callers
   * overlap); null lets them run.
   *
   * @param gate the gate, or null
   */
  public void holdReportsAt(CountDownLatch gate) {
    reportGate = gate;
  }

  /** A user's summary, under a key that names the method ({@code reports:summary:ID}). */
  @ShardedCacheable(cache = "reports", key = "#root.methodName + ':' + #id")
  public String summary(long id) {
    ran("summary", id);
    return "summary of " + id;
  }

  /** Drops every report, on every node; the users stay. */
  @ShardedCacheEvict(cache = "reports", allEntries = true)
  public void clearReports() {
    ran("clearReports", "");
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
