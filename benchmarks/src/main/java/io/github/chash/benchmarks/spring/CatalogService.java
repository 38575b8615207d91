package io.github.chash.benchmarks.spring;

import io.github.chash.benchmarks.aspect.User;
import org.springframework.cache.annotation.Cacheable;

/** The same plain {@code @Cacheable} methods for both cache managers; every key is cached. */
public class CatalogService {
  /** Creates the service. */
  public CatalogService() {}

  /** A string key: Spring's default key, the argument. */
  @Cacheable("users")
  public User byName(String id) {
    return new User(id, "user");
  }

  /** A numeric id, as services' keys mostly are (issue 18). */
  @Cacheable(cacheNames = "users", key = "#p0")
  public User byId(long id) {
    return new User(Long.toString(id), "user");
  }
}
