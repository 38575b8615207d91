package io.github.chash.cache;

import io.github.chash.config.ChashConfig;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The package-private hooks of a manager, for the tests against real servers in other packages: a
 * manager on a clock the test moves with probes and sweeps driven by hand, and what a test counts
 * of its routing (previous rings kept, nodes reachable, copy marks).
 */
public final class ManagerHooks {
  private ManagerHooks() {}

  /** The clock of a manager built by {@link #manualManager}: it moves only when told to. */
  public static final class Clock {
    private final FakeTicker ticker = new FakeTicker();

    /** Moves the clock on. */
    public void advance(Duration d) {
      ticker.advance(d);
    }
  }

  /**
   * A manager of the configuration on {@code clock}, without the maintenance thread: ejected nodes
   * are probed and leftovers swept only by {@link #probe} and {@link #sweep}. Returns once every
   * node answers.
   */
  public static ShardedCacheManager manualManager(ChashConfig config, Clock clock) {
    return LoopbackFleet.connected(startingManualManager(config, clock));
  }

  /**
   * {@link #manualManager(ChashConfig, Clock)} returned at once, whether its nodes answer or not: a
   * JVM that starts while a node is out to it.
   */
  public static ShardedCacheManager startingManualManager(ChashConfig config, Clock clock) {
    return ShardedCaches.builder()
        .config(config)
        .ticker(clock.ticker)
        .scheduleProbes(false)
        .build();
  }

  /**
   * {@link #manualManager(ChashConfig, Clock)} whose nodes of the factory's type are made by it
   * (e.g. real nodes wrapped in a {@link HookedNode}).
   */
  public static ShardedCacheManager manualManager(
      ChashConfig config, Clock clock, CacheNodeFactory nodes) {
    return LoopbackFleet.connected(
        ShardedCaches.builder()
            .config(config)
            .nodeFactory(nodes)
            .ticker(clock.ticker)
            .scheduleProbes(false)
            .build());
  }

  /** Probes the ejected nodes whose {@code retryAfter} has passed on the manager's clock. */
  public static void probe(ShardedCacheManager manager) {
    ((RingCacheManager) manager).failurePolicy().probeDue();
  }

  /** Deletes the copies the manager's marks say no read may trust (its periodic clean-up). */
  public static int cleanMarks(ShardedCacheManager manager) {
    return ((RingCacheManager) manager).failurePolicy().cleanMarks();
  }

  /** Runs the leftover sweep of the changes whose migration window has passed. */
  public static void sweep(ShardedCacheManager manager) {
    ((RingCacheManager) manager).membership().sweepDue();
  }

  /** How many node instances (slots) the manager's routing reaches: current and previous rings. */
  public static int reachableNodes(ShardedCacheManager manager) {
    return ((RingCacheManager) manager).membership().allSlots().size();
  }

  /** How many copy marks the nodes the manager reaches hold, in all. */
  public static int marks(ShardedCacheManager manager) {
    AtomicInteger count = new AtomicInteger();
    for (NodeSlot slot : ((RingCacheManager) manager).membership().allSlots()) {
      slot.marks.forEach((key, mark) -> count.incrementAndGet());
    }
    return count.get();
  }

  /** How many previous rings the manager's routing keeps. */
  public static int priors(ShardedCacheManager manager) {
    return routing(manager).priors.size();
  }

  /** Whether the node's invalidation channel is on, as the manager's near caches see it. */
  public static boolean tracking(ShardedCacheManager manager, String nodeId) {
    for (NodeSlot slot : ((RingCacheManager) manager).membership().allSlots()) {
      if (slot.id().equals(nodeId)) {
        return NodeTracking.on(slot.tracking.session());
      }
    }
    throw new IllegalArgumentException("no node " + nodeId);
  }

  private static Routing routing(ShardedCacheManager manager) {
    return ((RingCacheManager) manager).routing();
  }
}
