package io.github.chash.spring.boot.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheRecorder;
import io.github.chash.micrometer.ChashMeterBinder;
import io.github.chash.micrometer.MicrometerCacheRecorder;
import io.github.chash.spring.boot.ChashAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The metrics auto-configuration: the binder's tags, the recorder, and nothing without Micrometer.
 */
class ChashMetricsAutoConfigurationTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  ChashAutoConfiguration.class, ChashMetricsAutoConfiguration.class));

  @Test
  void autoConfiguration_tagsWithTheSpringCacheManagersBeanNameAndNeedsMicrometer() {
    runner.run(
        context -> {
          SimpleMeterRegistry meters = new SimpleMeterRegistry();
          context.getBean("chashMeterBinder", MeterBinder.class).bindTo(meters);
          assertThat(
                  meters
                      .get("cache.gets")
                      .tags("cache", "products", "cache.manager", "cacheManager", "result", "hit")
                      .functionCounter()
                      .count())
              .isZero();
          // no membership follower: no binder of its gauges, so an application's lookup of the
          // one MeterBinder still finds one
          assertThat(context).doesNotHaveBean("chashMembershipMeterBinder");
          assertThat(context.getBean(MeterBinder.class)).isInstanceOf(ChashMeterBinder.class);
          // no meter registry in this context: the manager records nothing
          assertThat(context.getBean(CacheRecorder.class)).isSameAs(CacheRecorder.NONE);
        });
    runner
        .withClassLoader(new FilteredClassLoader(MeterBinder.class))
        .run(context -> assertThat(context).doesNotHaveBean("chashMeterBinder"));
  }

  @Test
  void withAMeterRegistry_theManagerIsGivenAMicrometerRecorder() {
    runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(
            context -> {
              assertThat(context.getBean(CacheRecorder.class))
                  .isInstanceOf(MicrometerCacheRecorder.class);
              MeterRegistry meters = context.getBean(MeterRegistry.class);
              // the manager's caches registered their timers through the recorder
              assertThat(meters.find(MicrometerCacheRecorder.NEAR_HITS).timers()).isNotEmpty();
            });
  }
}
