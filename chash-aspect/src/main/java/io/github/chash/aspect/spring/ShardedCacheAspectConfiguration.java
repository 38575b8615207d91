package io.github.chash.aspect.spring;

import io.github.chash.aspect.ShardedCacheAspect;
import io.github.chash.cache.ShardedCacheManager;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;

/**
 * Runs {@link ShardedCacheAspect} as a Spring AOP aspect: import it, and declare a {@link
 * ShardedCacheManager} bean (else the aspect builds one from {@code chash.yaml}).
 *
 * <pre>{@code
 * @Configuration
 * @Import(ShardedCacheAspectConfiguration.class)
 * class CacheConfig {
 *   @Bean(destroyMethod = "close")
 *   ShardedCacheManager caches() {
 *     return ShardedCaches.create(ChashConfigs.load(Path.of("chash.yaml")));
 *   }
 * }
 * }</pre>
 *
 * <p>Annotated methods are advised through Spring proxies, so, as with Spring's own caching, a call
 * from inside the same object is not intercepted. Do not combine with AspectJ weaving of the same
 * classes.
 */
@Configuration(proxyBeanMethods = false)
@EnableAspectJAutoProxy
public class ShardedCacheAspectConfiguration {

  /** Creates the configuration; Spring calls this. */
  public ShardedCacheAspectConfiguration() {}

  /**
   * The aspect bean, wired to the context's {@link ShardedCacheManager} when it has one.
   *
   * @param managers the context's manager, looked up at the first advised call
   */
  @Bean
  public static ShardedCacheAspect shardedCacheAspect(ObjectProvider<ShardedCacheManager> managers) {
    ShardedCacheAspect aspect = new ShardedCacheAspect();
    aspect.setManagerProvider(managers::getIfAvailable);
    return aspect;
  }
}
