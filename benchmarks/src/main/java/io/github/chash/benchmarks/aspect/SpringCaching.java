package io.github.chash.benchmarks.aspect;

import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.List;
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

  /** Caffeine caches named {@code users} and {@code misses}, expiring like the sharded cache. */
  @Bean
  public CacheManager cacheManager() {
    CaffeineCacheManager manager = new CaffeineCacheManager();
    manager.setCaffeine(
        Caffeine.newBuilder().maximumSize(1 << 16).expireAfterWrite(AspectHitBenchmark.TTL));
    manager.setCacheNames(List.of("users", "misses"));
    manager.setAllowNullValues(false);
    return manager;
  }

  /** The proxied service. */
  @Bean
  public SpringUserService springUserService() {
    return new SpringUserService();
  }
}
