package io.github.chash.micrometer;

import io.github.chash.cache.CacheStats;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.ring.Node;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The counters and gauges of one {@link ShardedCacheManager}, read from its {@link CacheStats}: per
 * cache the standard {@code cache.*} meters ({@link ChashCacheMeterBinder}, tagged {@code cache}
 * and {@code cache.manager} as Spring Boot tags its own cache managers' caches) and the protocol's
 * {@code chash.cache.*} counters, and per node, tagged {@code node}:
 *
 * <ul>
 *   <li>{@code chash.node.errors}: operations on the node that failed or timed out;
 *   <li>{@code chash.node.ejections}: times the node was taken out of the live ring;
 *   <li>{@code chash.node.readmissions}: times it rejoined;
 *   <li>{@code chash.node.invalidations}: key changes it reported to the near caches; {@code
 *       chash.node.invalidations.lost}: times its invalidation channel was lost;
 *   <li>{@code chash.node.live}: 1 while the node serves, 0 while it is ejected.
 * </ul>
 *
 * <p>The timers and the ejections by cause come from a {@link MicrometerCacheRecorder} given to the
 * manager's builder. The Spring Boot starter binds both; outside Spring:
 *
 * <pre>{@code
 * ShardedCacheManager manager =
 *     ShardedCaches.builder().config(config).recorder(new MicrometerCacheRecorder(registry)).build();
 * new ChashMeterBinder(manager, "chash").bindTo(registry);
 * }</pre>
 */
public final class ChashMeterBinder implements MeterBinder {
  private final ShardedCacheManager manager;
  private final String cacheManagerTag;

  /**
   * Binds the meters of a manager's caches and nodes (those of the caches and nodes it has when
   * bound).
   *
   * @param manager the manager
   * @param cacheManagerTag the value of the {@code cache.manager} tag
   */
  public ChashMeterBinder(ShardedCacheManager manager, String cacheManagerTag) {
    this.manager = manager;
    this.cacheManagerTag = cacheManagerTag;
  }

  /** Binds every meter to {@code registry}. */
  @Override
  public void bindTo(MeterRegistry registry) {
    Tags managerTags = Tags.of("cache.manager", cacheManagerTag);
    for (String name : manager.cacheNames()) {
      new ChashCacheMeterBinder(manager.cache(name), managerTags).bindTo(registry);
    }
    for (Node node : manager.ring().nodes()) {
      String id = node.id();
      Tags tags = Tags.of("node", id);
      FunctionCounter.builder("chash.node.errors", manager, nodeCount(id, CacheStats::errorCount))
          .tags(tags)
          .description("Operations on the node that failed or timed out (each counted as a miss)")
          .register(registry);
      FunctionCounter.builder(
              "chash.node.ejections", manager, nodeCount(id, CacheStats::ejectionCount))
          .tags(tags)
          .description("Times the node was ejected from the live ring")
          .register(registry);
      FunctionCounter.builder(
              "chash.node.replica.reads", manager, nodeCount(id, CacheStats::replicaReadCount))
          .tags(tags)
          .description(
              "Keys read from a replica of the node's shard (readFrom: replicaPreferred), not its"
                  + " primary")
          .register(registry);
      FunctionCounter.builder(
              "chash.node.readmissions", manager, nodeCount(id, CacheStats::readmissionCount))
          .tags(tags)
          .description("Times the node rejoined the live ring after an ejection")
          .register(registry);
      FunctionCounter.builder(
              "chash.node.invalidations", manager, nodeCount(id, CacheStats::invalidationCount))
          .tags(tags)
          .description("Key changes the node reported to the near caches (client tracking)")
          .register(registry);
      FunctionCounter.builder(
              "chash.node.invalidations.lost",
              manager,
              nodeCount(id, CacheStats::invalidationLossCount))
          .tags(tags)
          .description(
              "Times the node's invalidation channel was lost (a reconnect), dropping every near"
                  + " entry read from it")
          .register(registry);
      Gauge.builder("chash.node.live", manager, m -> isLive(m, id) ? 1 : 0)
          .tags(tags)
          .description("1 while the node is in the live ring, 0 while it is ejected")
          .register(registry);
    }
  }

  private static ToDoubleFunction<ShardedCacheManager> nodeCount(
      String id, ToLongFunction<CacheStats> count) {
    return m -> {
      CacheStats stats = m.nodeStats().get(id);
      return stats == null ? 0 : count.applyAsLong(stats);
    };
  }

  private static boolean isLive(ShardedCacheManager manager, String id) {
    for (Node node : manager.liveRing().nodes()) {
      if (node.id().equals(id)) {
        return true;
      }
    }
    return false;
  }
}
