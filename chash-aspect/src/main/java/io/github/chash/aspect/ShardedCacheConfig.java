package io.github.chash.aspect;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Defaults for the chash annotations of the methods a class declares, as Spring's
 * {@code @CacheConfig}: an annotation's own value wins over these.
 *
 * <pre>{@code
 * @ShardedCacheConfig(cache = "users", ttl = "10m")
 * public class UserService {
 *   @ShardedCacheable(key = "#id")
 *   public User find(long id) { ... }
 *
 *   @ShardedCacheEvict(key = "#id")
 *   public void delete(long id) { ... }
 * }
 * }</pre>
 *
 * <p>Only the declaring class counts: methods a subclass inherits keep their own class's defaults,
 * and the subclass's own methods do not see a superclass's annotation (the build-time check reads
 * one class file at a time, and agrees).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ShardedCacheConfig {

  /** {@return the cache of annotations that name none; empty (the default) for no default} */
  String cache() default "";

  /**
   * {@return the time to live of entries written by {@link ShardedCacheable} and {@link
   * ShardedCachePut} methods that set no ttl of their own, as {@link ShardedCacheable#ttl()}; empty
   * (the default) for the cache's configured ttl}
   */
  String ttl() default "";
}
