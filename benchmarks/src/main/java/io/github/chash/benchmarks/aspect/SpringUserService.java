package io.github.chash.benchmarks.aspect;

import org.springframework.cache.annotation.Cacheable;

/** The Spring side: {@code @Cacheable} through a Spring proxy, default key (the argument). */
public class SpringUserService {
  /** Creates the service. */
  public SpringUserService() {}

  /** The hit path: every key is cached before measuring. */
  @Cacheable("users")
  public User find(String id) {
    return new User(id, "user");
  }

  /** The miss path without a store: null results are not cached. */
  @Cacheable(cacheNames = "misses", unless = "#result == null")
  public User absent(String id) {
    return null;
  }
}
