package io.github.chash.spring.cache;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.CacheConfig;
import org.springframework.cache.annotation.Cacheable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Plain {@code @Cacheable} on asynchronous methods: {@code CompletableFuture}, Reactor {@code Mono}
 * and {@code Flux}, with and without {@code sync}. Each method's future is the one {@link #pending}
 * hands out, so a test decides when (and how) it completes.
 */
@CacheConfig(cacheNames = "products")
public class AsyncCatalogService {
  private final ConcurrentHashMap<String, AtomicInteger> runs = new ConcurrentHashMap<>();

  /** The futures the bodies returned and the tests complete, by method and key. */
  private final ConcurrentHashMap<String, CompletableFuture<String>> pending =
      new ConcurrentHashMap<>();

  /** Body runs of a method (a method: the bean is a proxy). */
  public int runs(String method) {
    AtomicInteger n = runs.get(method);
    return n == null ? 0 : n.get();
  }

  /**
   * {@return the future the body of {@code method} returns for {@code id}, not yet completed}
   * Created by the first of the body and the test to ask.
   */
  public CompletableFuture<String> pending(String method, String id) {
    return pending.computeIfAbsent(method + ":" + id, k -> new CompletableFuture<>());
  }

  /** Forgets the futures handed out, so the next body run gets a new one. */
  public void forgetPending() {
    pending.clear();
  }

  private CompletableFuture<String> ran(String method, String id) {
    runs.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
    return pending(method, id);
  }

  /** A future method, without sync: Spring's retrieve(key), then a put when it completes. */
  @Cacheable
  public CompletableFuture<String> product(String id) {
    return ran("product", id);
  }

  /** A future method with sync: retrieve(key, loader), one running future per key. */
  @Cacheable(sync = true)
  public CompletableFuture<String> productSync(String id) {
    return ran("productSync", id);
  }

  /** A future of null, cached as a cached null. */
  @Cacheable(cacheNames = "users", sync = true, key = "'none:' + #id")
  public CompletableFuture<String> nothing(String id) {
    runs.computeIfAbsent("nothing", m -> new AtomicInteger()).incrementAndGet();
    return CompletableFuture.completedFuture(null);
  }

  /** A Mono method, without sync. */
  @Cacheable("users")
  public Mono<String> user(String id) {
    return Mono.fromFuture(ran("user", id));
  }

  /** A Mono method with sync. */
  @Cacheable(cacheNames = "users", sync = true, key = "'sync:' + #id")
  public Mono<String> userSync(String id) {
    return Mono.fromFuture(ran("userSync", id));
  }

  /** A Flux method with sync: the list of its elements is cached. */
  @Cacheable(cacheNames = "prices", sync = true)
  public Flux<String> prices(String id) {
    return Mono.fromFuture(ran("prices", id)).flatMapMany(v -> Flux.just(v, v + "-2"));
  }
}
