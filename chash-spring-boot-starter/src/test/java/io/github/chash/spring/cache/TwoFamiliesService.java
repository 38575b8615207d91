package io.github.chash.spring.cache;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.aspect.ShardedCacheable;
import io.github.chash.testing.CollidingKeys;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;

/** The same caches and keys through Spring's annotations and chash's, side by side. */
public class TwoFamiliesService {
  final AtomicInteger springRuns = new AtomicInteger();
  final AtomicInteger chashRuns = new AtomicInteger();

  /** Body runs of the Spring-annotated methods (a method: the bean is a proxy). */
  public int springRuns() {
    return springRuns.get();
  }

  /** Body runs of the chash-annotated methods. */
  public int chashRuns() {
    return chashRuns.get();
  }

  /** A record key. */
  public record Sku(String vendor, int number) {}

  @Cacheable("users")
  public String springUser(String id) {
    springRuns.incrementAndGet();
    return "spring " + id;
  }

  @ShardedCacheable(cache = "users")
  public String chashUser(String id) {
    chashRuns.incrementAndGet();
    return "chash " + id;
  }

  @Cacheable("users")
  public String springAny(Object key) {
    springRuns.incrementAndGet();
    return "spring " + CollidingKeys.described(key);
  }

  @ShardedCacheable(cache = "users")
  public String chashAny(Object key) {
    chashRuns.incrementAndGet();
    return "chash " + CollidingKeys.described(key);
  }

  @Cacheable("prices")
  public String springTwo(Object first, String second) {
    springRuns.incrementAndGet();
    return "spring " + CollidingKeys.described(first) + "," + second;
  }

  @Cacheable("prices")
  public String springPrice(String sku, int quantity) {
    springRuns.incrementAndGet();
    return "spring " + sku + "x" + quantity;
  }

  @ShardedCacheable(cache = "prices")
  public String chashPrice(String sku, int quantity) {
    chashRuns.incrementAndGet();
    return "chash " + sku + "x" + quantity;
  }

  @Cacheable("products")
  public String springSku(Sku sku) {
    springRuns.incrementAndGet();
    return "spring " + sku;
  }

  @ShardedCacheable(cache = "products")
  public String chashSku(Sku sku) {
    chashRuns.incrementAndGet();
    return "chash " + sku;
  }

  @Cacheable("products")
  public String springLong(long id) {
    springRuns.incrementAndGet();
    return "spring " + id;
  }

  @ShardedCacheable(cache = "products", key = "#id")
  public String chashLong(long id) {
    chashRuns.incrementAndGet();
    return "chash " + id;
  }

  @CachePut(cacheNames = "users", key = "#id")
  public String springPut(String id, String value) {
    return value;
  }

  @ShardedCacheEvict(cache = "users", key = "#id")
  public void chashEvict(String id) {}

  @Cacheable(cacheNames = "users", key = "'none:' + #id")
  public String springNull(String id) {
    springRuns.incrementAndGet();
    return null;
  }

  @ShardedCacheable(cache = "users", key = "'none:' + #id", cacheNull = true)
  public String chashNull(String id) {
    chashRuns.incrementAndGet();
    return null;
  }
}
