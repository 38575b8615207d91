/**
 * Spring's {@code @Cacheable} hit on chash's {@code CacheManager} next to the same annotation on
 * Spring's {@code CaffeineCacheManager}: what switching a Spring Boot application to chash costs
 * per cached call.
 */
package io.github.chash.benchmarks.spring;
