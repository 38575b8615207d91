/**
 * chash's {@code @ShardedCache*} annotations and the aspect that runs them, woven at compile time,
 * at load time or through Spring proxies.
 *
 * <p>The API is the annotations ({@code io.github.chash.aspect}) and the Spring wiring ({@code
 * io.github.chash.aspect.spring}). Woven code calls only the aspect itself ({@code
 * ShardedCacheAspect.aspectOf()}), so {@code io.github.chash.aspect.internal} is not exported.
 * Spring is optional ({@code requires static}): applications without it never load the Spring
 * package.
 */
module io.github.chash.aspect {
  requires transitive io.github.chash.runtime;
  requires org.aspectj.runtime;
  requires static spring.aop;
  requires static spring.beans;
  requires static spring.context;
  requires static spring.core;

  exports io.github.chash.aspect;
  exports io.github.chash.aspect.spring;
}
