package com.example.catalog;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.CacheConfig;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.CachePut;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.Caching;
import org.springframework.stereotype.Service;

/** The catalog, cached with plain Spring annotations; the map stands for a slow database. */
@Service
@CacheConfig(cacheNames = "products")
public class ProductService {
  private final Map<Long, Product> database = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> bodyRuns = new ConcurrentHashMap<>();

  private void ran(String method) {
    bodyRuns.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
  }

  /** How often each method's body ran (the cache missed). */
  public Map<String, Integer> bodyRuns() {
    Map<String, Integer> out = new TreeMap<>();
    bodyRuns.forEach((method, runs) -> out.put(method, runs.get()));
    return out;
  }

  private Product load(long id) {
    return database.computeIfAbsent(id, i -> new Product(i, "product " + i, 100 * i));
  }

  @Cacheable
  public Product find(long id) {
    ran("find");
    return load(id);
  }

  @Cacheable(cacheNames = "prices", key = "#id", sync = true)
  public long price(long id) {
    ran("price");
    return load(id).priceCents();
  }

  @Cacheable(key = "'name:' + #name", condition = "#name.length() > 2", unless = "#result == null")
  public Product byName(String name) {
    ran("byName");
    return database.values().stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
  }

  @CachePut(key = "#id")
  public Product rename(long id, String name) {
    ran("rename");
    Product renamed = new Product(id, name, load(id).priceCents());
    database.put(id, renamed);
    return renamed;
  }

  @CacheEvict
  public void delete(long id) {
    ran("delete");
    database.remove(id);
  }

  @Caching(
      evict = {
        @CacheEvict(allEntries = true),
        @CacheEvict(cacheNames = "prices", allEntries = true)
      })
  public void reload() {
    ran("reload");
  }
}
