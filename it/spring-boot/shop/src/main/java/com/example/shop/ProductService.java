package com.example.shop;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/** The shop's products, cached with plain Spring annotations; the map stands for a database. */
@Service
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
    return database.computeIfAbsent(
        id,
        i ->
            new Product(
                i,
                "product " + i,
                100 * i,
                List.of(i % 2 == 0 ? "even" : "odd"),
                Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i)));
  }

  @Cacheable("products")
  public Product find(long id) {
    ran("find");
    return load(id);
  }

  @Cacheable("tags")
  public List<Product> tagged(String tag) {
    ran("tagged");
    return List.of(1L, 2L, 3L, 4L).stream()
        .map(this::load)
        .filter(p -> p.tags().contains(tag))
        .toList();
  }

  @CacheEvict("products")
  public void delete(long id) {
    ran("delete");
    database.remove(id);
  }
}
