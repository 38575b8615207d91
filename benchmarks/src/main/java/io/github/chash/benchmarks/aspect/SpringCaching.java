package io.github.chash.benchmarks.aspect;

import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.caffeine.CaffeineCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Spring's caching over Caffeine, as its documentation sets it up. */
@Configuration(proxyBeanMethods = false)
@EnableCaching
public class SpringCaching {
  /** For Spring. */
  public SpringCaching() {}

  /** Caffeine caches named {@code users} and {@code misses}. */
  @Bean
  public CacheManager cacheManager() {
    CaffeineCacheManager manager = new CaffeineCacheManager("users", "misses");
    manager.setAllowNullValues(false);
    return manager;
  }

  /** The proxied service. */
  @Bean
  public SpringUserService springUserService() {
    return new SpringUserService();
  }
}
