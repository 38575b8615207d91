package io.github.chash.micrometer;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;

/**
 * Outside Spring, a manager with every meter the Spring Boot starter gives it, in one call: the
 * builder gets a {@link MicrometerCacheRecorder} (timers, causes, and spans when an observation
 * registry is given) and the built manager's counters and gauges are bound ({@link
 * ChashMeterBinder}, {@code cache.manager} tag {@code chash}).
 *
 * <pre>{@code
 * ShardedCacheManager manager =
 *     ChashMetrics.build(ShardedCaches.builder().config(ChashConfigs.loadFromClasspath()), registry);
 * }</pre>
 */
public final class ChashMetrics {
  private ChashMetrics() {}

  /**
   * {@return the manager {@code builder} builds, metered in {@code registry}, with no spans}
   *
   * @param builder the manager's builder, with no recorder set
   * @param registry where the meters go
   * @throws IllegalStateException if the builder has a recorder already
   */
  public static ShardedCacheManager build(ShardedCaches.Builder builder, MeterRegistry registry) {
    return build(builder, registry, ObservationRegistry.NOOP);
  }

  /**
   * {@return the manager {@code builder} builds, metered in {@code registry}, its calls on remote
   * nodes observed in {@code observations}}
   *
   * @param builder the manager's builder, with no recorder set
   * @param registry where the meters go
   * @param observations where the Observations (spans) go
   * @throws IllegalStateException if the builder has a recorder already
   */
  public static ShardedCacheManager build(
      ShardedCaches.Builder builder, MeterRegistry registry, ObservationRegistry observations) {
    Objects.requireNonNull(registry, "registry");
    ShardedCacheManager manager =
        builder.recorder(new MicrometerCacheRecorder(registry, observations, Tags.empty())).build();
    new ChashMeterBinder(manager, "chash").bindTo(registry);
    return manager;
  }
}
