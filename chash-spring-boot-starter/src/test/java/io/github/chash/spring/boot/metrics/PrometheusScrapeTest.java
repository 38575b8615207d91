package io.github.chash.spring.boot.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheNodes;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.micrometer.ChashMeterBinder;
import io.github.chash.micrometer.MicrometerCacheRecorder;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** chash's meters as Prometheus scrapes them: names, tags and bucket bounds. */
class PrometheusScrapeTest {
  @Test
  void scrape_namesTagsAndBucketBounds() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (ShardedCacheManager manager =
        ShardedCaches.builder()
            .node(CacheNodes.local("a", 100), 1)
            .cache("users", Duration.ofMinutes(10))
            .recorder(new MicrometerCacheRecorder(registry, ObservationRegistry.NOOP, Tags.empty()))
            .build()) {
      new ChashMeterBinder(manager, "chash").bindTo(registry);
      String scrape = registry.scrape();

      assertThat(scrape)
          .contains("chash_near_hits_seconds_bucket{cache=\"users\",le=\"1.0E-6\"}")
          .contains("chash_near_hits_seconds_bucket{cache=\"users\",le=\"0.001\"}")
          .contains(
              "chash_cache_loads_seconds_bucket{cache=\"users\",result=\"success\",le=\"0.001\"}")
          .contains(
              "chash_cache_loads_seconds_bucket{cache=\"users\",result=\"failure\",le=\"10.0\"}")
          .contains("cache_gets_total{cache=\"users\",cache_manager=\"chash\",result=\"hit\"}")
          .contains("chash_cache_safety_misses_total{cache=\"users\",cache_manager=\"chash\"}")
          .contains("chash_node_live{node=\"a\"}");
    }
  }
}
