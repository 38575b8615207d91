package io.github.chash.benchmarks.aspect;

import org.springframework.cache.annotation.Cacheable;

/** The Spring side of {@link HitPathBenchmark}: the same long-id method, through Spring's proxy. */
public class SpringLookupService {
  /** Creates the service. */
  public SpringLookupService() {}

  /** A numeric id, keyed as the woven method is. */
  @Cacheable(cacheNames = "users", key = "#p0")
  public String find(long id) {
    return HitPathBenchmark.value(id);
  }
}
