package io.github.chash.spring.cache;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.CacheConfig;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.Caching;

/** Plain Spring caching, every attribute the starter promises to route through chash. */
@CacheConfig(cacheNames = "products")
public class CatalogService {
  /** Method body runs, by method. */
  private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

  /** Held by {@link #slowPrice} until released, so concurrent callers meet in the cache. */
  private volatile CountDownLatch priceGate = new CountDownLatch(0);

  /** A product record key. */
  public record Sku(String vendor, int number) {}

  /** Makes {@link #slowPrice} wait for the returned latch (a method: the bean is a proxy). */
  public CountDownLatch closePriceGate() {
    priceGate = new CountDownLatch(1);
    return priceGate;
  }

  /** Body runs of a method. */
  public int runs(String method) {
    AtomicInteger n = runs.get(method);
    return n == null ? 0 : n.get();
  }

  private void ran(String method) {
    runs.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
  }

  /** Default key (the argument), default cache from @CacheConfig. */
  @Cacheable
  public String product(long id) {
    ran("product");
    return "product-" + id;
  }

  /** Default key of two arguments: a SimpleKey (chash's, from ChashKeyGenerator). */
  @Cacheable("prices")
  public String price(String sku, String currency) {
    ran("price");
    return sku + "@" + currency;
  }

  /** A SpEL key. */
  @Cacheable(cacheNames = "users", key = "#name.toLowerCase()")
  public String user(String name) {
    ran("user");
    return "user " + name;
  }

  /** A record key. */
  @Cacheable(cacheNames = "products")
  public String bySku(Sku sku) {
    ran("bySku");
    return "sku " + sku.vendor() + "-" + sku.number();
  }

  /** Cached only for positive ids. */
  @Cacheable(condition = "#id > 0")
  public String conditional(long id) {
    ran("conditional");
    return "c" + id;
  }

  /** Results starting with "tmp" are not cached. */
  @Cacheable(cacheNames = "users", unless = "#result.startsWith('tmp')")
  public String unless(String value) {
    ran("unless");
    return value;
  }

  /** A null result, cached only where null values are allowed. */
  @Cacheable(cacheNames = "users", key = "'missing:' + #id")
  public String missing(long id) {
    ran("missing");
    return null;
  }

  /** One caller per key computes, the others wait (sync). */
  @Cacheable(cacheNames = "prices", sync = true)
  public String slowPrice(String sku) throws InterruptedException {
    ran("slowPrice");
    if (!priceGate.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("price gate never opened");
    }
    return "slow " + sku;
  }

  /** A sync load that fails. */
  @Cacheable(cacheNames = "prices", sync = true)
  public String failingPrice(String sku) {
    ran("failingPrice");
    throw new UnsupportedOperationException("no price for " + sku);
  }

  /** Replaces the cached product. */
  @CachePut(key = "#id")
  public String updateProduct(long id, String value) {
    ran("updateProduct");
    return value;
  }

  /** Removes one product. */
  @CacheEvict
  public void evictProduct(long id) {
    ran("evictProduct");
  }

  /** Removes every product. */
  @CacheEvict(allEntries = true)
  public void evictAllProducts() {
    ran("evictAllProducts");
  }

  /** Evicts a product and a user at once. */
  @Caching(
      evict = {
        @CacheEvict(key = "#id"),
        @CacheEvict(cacheNames = "users", key = "#user.toLowerCase()")
      })
  public void forget(long id, String user) {
    ran("forget");
  }

  /** A key without a stable form. */
  @Cacheable("users")
  public String byIdentity(Object key) {
    ran("byIdentity");
    return "identity";
  }

  /** Lists, to show collection keys. */
  @Cacheable("prices")
  public String byList(List<String> skus) {
    ran("byList");
    return String.join("+", skus);
  }
}
