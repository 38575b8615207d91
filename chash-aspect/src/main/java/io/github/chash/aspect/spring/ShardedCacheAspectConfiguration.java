package io.github.chash.aspect.spring;

import io.github.chash.aspect.internal.CacheOperations;
import io.github.chash.aspect.internal.ShardedCacheInterceptor;
import io.github.chash.cache.ShardedCacheManager;
import java.lang.annotation.Annotation;
import org.springframework.aop.Advisor;
import org.springframework.aop.Pointcut;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Runs the chash annotations through Spring AOP proxies: import it, and declare a {@link
 * ShardedCacheManager} bean (else the advice builds one from {@code chash.yaml}).
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
 * <p>One advisor: the annotated methods of a bean's class (or of the class behind an interface
 * proxy) run through a {@link ShardedCacheInterceptor}, which shares the compiled operations with
 * the woven {@code ShardedCacheAspect}. Key expressions that name parameters ({@code #id}) need
 * classes compiled with {@code -parameters}: a proxy has only reflection to learn the names. The
 * advisors are infrastructure beans, applied by Spring's infrastructure auto-proxy creator, which
 * this configuration registers as {@code @EnableCaching} does (an {@code @EnableAspectJAutoProxy}
 * elsewhere takes over and applies them too); so AspectJ's weaver library is not needed. As with
 * Spring's own caching, a call from inside the same object is not intercepted. Do not combine with
 * AspectJ weaving of the same classes.
 */
@Configuration(proxyBeanMethods = false)
@Import(ShardedCacheAspectConfiguration.AutoProxy.class)
public class ShardedCacheAspectConfiguration {

  /** Creates the configuration; Spring calls this. */
  public ShardedCacheAspectConfiguration() {}

  /** Registers Spring's auto-proxy creator for infrastructure advisors, unless one is there. */
  static final class AutoProxy implements ImportBeanDefinitionRegistrar {
    AutoProxy() {}

    @Override
    public void registerBeanDefinitions(
        AnnotationMetadata importingClass, BeanDefinitionRegistry registry) {
      AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
    }
  }

  /**
   * Advises every method with a chash annotation (one or several).
   *
   * @param managers the context's manager, looked up at the first advised call
   * @return the advisor
   */
  @Bean
  @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
  public static Advisor shardedCacheAdvisor(ObjectProvider<ShardedCacheManager> managers) {
    // Methods of the target class, as AspectJ's execution() would match: not inherited ones.
    ComposablePointcut pointcut = null;
    for (Class<? extends Annotation> annotation : CacheOperations.ANNOTATION_TYPES) {
      Pointcut one = AnnotationMatchingPointcut.forMethodAnnotation(annotation);
      pointcut = pointcut == null ? new ComposablePointcut(one) : pointcut.union(one);
    }
    return new DefaultPointcutAdvisor(
        pointcut, new ShardedCacheInterceptor(managers::getIfAvailable));
  }
}
