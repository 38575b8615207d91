/**
 * The aspect's hit and miss paths against a direct Caffeine lookup and Spring's {@code @Cacheable}
 * on a {@code CaffeineCacheManager}. {@link io.github.chash.benchmarks.aspect.WovenUserService} is
 * woven by ajc after javac (binary weaving of the module's classes, see the module's POM).
 */
package io.github.chash.benchmarks.aspect;
