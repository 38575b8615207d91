package io.github.chash.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.MigrationConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import io.github.chash.ring.Node;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Creates {@link ShardedCacheManager}s, from a {@code chash.yaml} model or a {@link Builder}. The
 * implementations are package-private.
 */
public final class ShardedCaches {
  /**
   * The most keys a manager tracks as copies it cannot vouch for by the routing alone (written away
   * from their home while it was out, or whose write failed); see the operations guide.
   */
  static final int MAX_MARKS = 100_000;

  private static final System.Logger LOG = System.getLogger(ShardedCaches.class.getName());

  private ShardedCaches() {}

  private static List<Node> ringNodes(Map<String, NodeSlot> slots) {
    List<Node> nodes = new ArrayList<>(slots.size());
    slots.values().forEach(slot -> nodes.add(slot.ringNode));
    return nodes;
  }

  /**
   * Builds a manager from a configuration: its ring settings, nodes (created by the {@link
   * CacheNodeFactory} of each node's type), caches and failover policy.
   *
   * @param config the configuration
   * @return the manager
   * @throws IllegalArgumentException if a node type has no factory on the class path, naming the
   *     node and type, or a factory rejects a node
   */
  public static ShardedCacheManager create(ChashConfig config) {
    return builder().config(config).build();
  }

  /** {@return an empty builder: default ring settings and failover policy, no nodes, no caches} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds a {@link ShardedCacheManager}. Not thread-safe; build once.
   *
   * <pre>{@code
   * ShardedCacheManager caches = ShardedCaches.builder()
   *     .node(NodeConfig.local("a"))
   *     .node(CacheNodes.local("b", 50_000), 2)
   *     .cache("users", Duration.ofMinutes(10))
   *     .build();
   * }</pre>
   */
  public static final class Builder {
    private ChashConfig config;

    /** The rings a JVM started during a rollout changes through at once, its own last. */
    private List<ChashConfig> changesOnStart = List.of();

    private RingSettings ring;
    private FailoverConfig failover;
    private final Map<String, NodeConfig> nodeConfigs = new LinkedHashMap<>();
    private final Map<String, CacheNode> nodeInstances = new LinkedHashMap<>();
    private final Map<String, Integer> weights = new LinkedHashMap<>();
    private final Map<String, CacheConfig> caches = new LinkedHashMap<>();
    private java.util.concurrent.Executor refreshes;
    private final Map<NodeType, CacheNodeFactory> factories = new HashMap<>();
    private MigrationConfig migration;
    private Ticker ticker = Ticker.systemTicker();
    private LeaseWait.Pause pause = LeaseWait.SLEEP;
    private boolean scheduleProbes = true;
    private CacheRecorder recorder = CacheRecorder.NONE;

    private Builder() {}

    /**
     * Takes the ring settings, nodes, caches and failover policy of a configuration; the
     * configuration is also what node factories receive.
     *
     * @param config the configuration
     * @return this builder
     * @throws IllegalStateException if a configuration was already set
     */
    public Builder config(ChashConfig config) {
      if (this.config != null) {
        throw new IllegalStateException("config was already set to " + this.config.source());
      }
      Objects.requireNonNull(config, "config");
      List<ChashConfig> rings = ringsOnStart(config, Instant.now());
      ChashConfig first = rings.get(0);
      this.config = first;
      this.changesOnStart = rings.subList(1, rings.size());
      ring(config.ring());
      failover(config.failover());
      first.nodes().forEach(this::node);
      config.caches().values().forEach(this::cache);
      return this;
    }

    /**
     * The rings a JVM starts on and changes through: the configuration's own alone, or, while the
     * rollout of a configuration that names the rings it replaces runs ({@link
     * MigrationConfig.Replaces}), the oldest of those still in rollout, from which {@link #build}
     * changes to each newer one and then to the configuration's, as a running JVM does. A JVM a
     * rolling restart starts on the new ring so reads and fences the previous owners that the JVMs
     * not yet replaced still write to (issue 41: without it, 122 to 5,644 stale reads per rollout);
     * through every ring still in rollout, since a change made during another's rollout meets JVMs
     * on both rings before it.
     */
    private static List<ChashConfig> ringsOnStart(ChashConfig config, Instant now) {
      List<MigrationConfig.Replaces> replaced = config.migration().inRollout(now);
      if (replaced.isEmpty() || Planted.on(Planted.NO_REPLACED_RING)) {
        return List.of(config);
      }
      List<ChashConfig> rings = new ArrayList<>(replaced.size() + 1);
      for (MigrationConfig.Replaces ring :
          Planted.on(Planted.NEWEST_REPLACED_ONLY)
              ? replaced.subList(replaced.size() - 1, replaced.size())
              : replaced) {
        rings.add(config.withNodes(ring.nodes()));
      }
      rings.add(config);
      return rings;
    }

    /**
     * Sets how the ring places keys (default {@link RingSettings#defaults()}).
     *
     * @param ring the ring settings
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder ring(RingSettings ring) {
      if (this.ring != null) {
        throw new IllegalStateException("ring settings were already set to " + this.ring);
      }
      this.ring = Objects.requireNonNull(ring, "ring");
      return this;
    }

    /**
     * Sets the failure policy (default {@link FailoverConfig#defaults()}); its values were checked
     * when it was made.
     *
     * @param failover the failure policy
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder failover(FailoverConfig failover) {
      if (this.failover != null) {
        throw new IllegalStateException("failover was already set to " + this.failover);
      }
      this.failover = Objects.requireNonNull(failover, "failover");
      return this;
    }

    /**
     * Adds a node to be created by its type's factory at {@link #build()}.
     *
     * @param node the node
     * @return this builder
     * @throws IllegalArgumentException if a node with the same id was added
     */
    public Builder node(NodeConfig node) {
      Objects.requireNonNull(node, "node");
      requireNewNode(node.id());
      nodeConfigs.put(node.id(), node);
      weights.put(node.id(), node.weight());
      return this;
    }

    /**
     * Adds a ready-made node of the given weight; the manager closes it on {@link
     * ShardedCacheManager#close()}.
     *
     * @param node the node
     * @param weight the node's weight, positive
     * @return this builder
     * @throws IllegalArgumentException if a node with the same id was added, or the weight is not
     *     positive
     */
    public Builder node(CacheNode node, int weight) {
      Objects.requireNonNull(node, "node");
      requireNewNode(node.id());
      Node.of(node.id(), weight);
      nodeInstances.put(node.id(), node);
      weights.put(node.id(), weight);
      return this;
    }

    /**
     * Adds a named cache, under the rules of {@code chash.yaml}'s caches ({@link CacheConfig}).
     *
     * @param name the cache name
     * @param ttl time to live of its entries, positive; {@code null} for no expiry
     * @return this builder
     * @throws IllegalArgumentException if the name is blank, contains {@code :} or is taken, or the
     *     TTL is not positive
     */
    public Builder cache(String name, Duration ttl) {
      return cache(new CacheConfig(name, ttl));
    }

    /**
     * Adds a named cache with all its settings (ttl, jitter, refresh-ahead, the ttl of nulls).
     *
     * @param cache the cache's settings
     * @return this builder
     * @throws IllegalArgumentException if the name is taken
     */
    public Builder cache(CacheConfig cache) {
      Objects.requireNonNull(cache, "cache");
      if (caches.containsKey(cache.name())) {
        throw new IllegalArgumentException("duplicate cache name \"" + cache.name() + "\"");
      }
      caches.put(cache.name(), cache);
      return this;
    }

    /**
     * Uses this factory for its node type, ahead of any found by {@link ServiceLoader}.
     *
     * @param factory the factory
     * @return this builder
     * @throws IllegalStateException if a factory for the type was already set
     */
    public Builder nodeFactory(CacheNodeFactory factory) {
      Objects.requireNonNull(factory, "factory");
      if (factories.containsKey(factory.type())) {
        throw new IllegalStateException(
            "a node factory for type " + factory.type().configName() + " was already set");
      }
      factories.put(factory.type(), factory);
      return this;
    }

    /**
     * Sets how the manager moves to a new node set when reconfigured (default {@link
     * MigrationConfig#defaults()}; a configuration brings its own).
     *
     * @param migration the migration settings
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder migration(MigrationConfig migration) {
      if (this.migration != null) {
        throw new IllegalStateException("migration was already set to " + this.migration);
      }
      this.migration = Objects.requireNonNull(migration, "migration");
      return this;
    }

    private MigrationConfig migration() {
      return migration != null ? migration : MigrationConfig.defaults();
    }

    /**
     * Sets what the manager reports its timings and node events to (default {@link
     * CacheRecorder#NONE}: nothing, and no clock read); {@code chash-micrometer}'s {@code
     * MicrometerCacheRecorder} reports them to a Micrometer {@code MeterRegistry} and {@code
     * ObservationRegistry}. The counts are in {@link ShardedCacheManager#nodeStats()} and each
     * cache's {@link ShardedCache#stats()} whatever the recorder.
     *
     * @param recorder the recorder
     * @return this builder
     * @throws IllegalStateException if already set
     */
    public Builder recorder(CacheRecorder recorder) {
      if (this.recorder != CacheRecorder.NONE) {
        throw new IllegalStateException("a recorder was already set: " + this.recorder);
      }
      this.recorder = Objects.requireNonNull(recorder, "recorder");
      return this;
    }

    /** Where refresh-ahead reloads run; tests run them by hand. */
    Builder refreshExecutor(java.util.concurrent.Executor refreshes) {
      this.refreshes = refreshes;
      return this;
    }

    /** The clock of expiry and retry delays; tests pass a fake one. */
    Builder ticker(Ticker ticker) {
      this.ticker = ticker;
      return this;
    }

    /**
     * How a sync load pauses while it waits for another JVM's fill ({@link LeaseWait}); the
     * simulation's scheduler stands in for the sleep.
     */
    Builder pause(LeaseWait.Pause pause) {
      this.pause = pause;
      return this;
    }

    /** Whether ejected nodes are probed by a background thread; tests probe by hand. */
    Builder scheduleProbes(boolean scheduleProbes) {
      this.scheduleProbes = scheduleProbes;
      return this;
    }

    /**
     * Creates the nodes and the manager.
     *
     * @return the manager
     * @throws IllegalStateException if no node was added
     * @throws IllegalArgumentException if a node type has no factory, naming node and type
     */
    public ShardedCacheManager build() {
      if (weights.isEmpty()) {
        throw new IllegalStateException("a sharded cache needs at least one node; none was added");
      }
      RingSettings settings = ring != null ? ring : RingSettings.defaults();
      FailoverConfig policy = failover != null ? failover : FailoverConfig.defaults();
      ChashConfig whole = config != null ? config : programmaticConfig(settings, policy);
      NodeFactories nodeFactories = new NodeFactories(factories, ticker);
      Map<String, NodeSlot> slots = new LinkedHashMap<>();
      AtomicInteger marks = new AtomicInteger();
      List<CacheNode> created = new ArrayList<>();
      try {
        for (String id : weights.keySet()) {
          CacheNode node = nodeInstances.get(id);
          if (node == null) {
            node = nodeFactories.create(nodeConfigs.get(id), whole);
            created.add(node);
          }
          slots.put(
              id, new NodeSlot(node, ringNode(id), slots.size(), new CopyMarks(marks, MAX_MARKS)));
        }
      } catch (RuntimeException e) {
        created.forEach(CacheNode::close);
        throw e;
      }
      Router router = new Router(Routing.initial(Rings.create(settings, ringNodes(slots)), slots));
      NearCaches near = NearCaches.of(caches.values(), router, ticker);
      try {
        for (NodeSlot slot : slots.values()) {
          near.attach(slot, whole);
        }
      } catch (RuntimeException e) {
        near.close();
        created.forEach(CacheNode::close);
        throw e;
      }
      // remote nodes connect in parallel from their creation: this waits about one connect timeout
      slots.values().forEach(slot -> slot.node.awaitReady());
      router.window = (config != null ? config.migration() : migration()).window();
      FailurePolicy failures = new FailurePolicy(router, policy, ticker, scheduleProbes);
      failures.recorder = recorder;
      recorder.nodesServed(slots.keySet());
      CacheRecorder timings = recorder;
      InFlightLoads inFlight = new InFlightLoads();
      KeyStripes stripes = new KeyStripes();
      Lifetimes lifetimes = new Lifetimes();
      Function<CacheConfig, RoutedCache> newCache =
          cache ->
              new RoutedCache(
                  cache,
                  new StatsCounter(timings.cache(cache.name())),
                  new HitCounts(slots.size()),
                  router,
                  failures,
                  inFlight,
                  stripes,
                  lifetimes,
                  refreshes != null ? refreshes : Loads.REFRESHES,
                  WrittenKeys.of(cache),
                  near.of(cache.name()),
                  new LeaseWait(ticker, pause));
      Map<String, RoutedCache> handles = new LinkedHashMap<>();
      caches.forEach((name, cache) -> handles.put(name, newCache.apply(cache)));
      RingCacheManager manager = new RingCacheManager(handles, newCache, router, failures, near);
      manager.membership(
          new Membership(
              router,
              failures,
              nodeFactories,
              manager,
              marks,
              lifetimes,
              config != null ? config : whole,
              settings,
              config != null ? config.migration() : migration(),
              slots,
              nodeConfigs,
              near));
      if (!changesOnStart.isEmpty()) {
        changeOnStart(manager);
      }
      return manager;
    }

    private void changeOnStart(RingCacheManager manager) {
      ChashConfig own = changesOnStart.get(changesOnStart.size() - 1);
      LOG.log(
          Level.INFO,
          "{0}: started during the rollout that began at {1}: from the ring it replaces, {2},"
              + " to its own",
          own.source(),
          own.migration().replaces().get(0).since(),
          config.nodes().stream().map(NodeConfig::id).toList());
      try {
        for (ChashConfig ring : changesOnStart) {
          manager.reconfigure(ring);
        }
      } catch (RuntimeException | Error e) {
        manager.close();
        throw e;
      }
    }

    /** The node as a ring member: a configured node keeps its name (ketama, jedis). */
    private Node ringNode(String id) {
      NodeConfig configured = nodeConfigs.get(id);
      return configured != null ? configured.toNode() : Node.of(id, weights.get(id));
    }

    private void requireNewNode(String id) {
      if (weights.containsKey(id)) {
        throw new IllegalArgumentException("duplicate node id \"" + id + "\"");
      }
    }

    /**
     * The configuration node factories receive when the builder was not given one: the nodes they
     * create, with the builder's ring, failover and caches. Null when every node is ready-made.
     */
    private ChashConfig programmaticConfig(RingSettings settings, FailoverConfig policy) {
      if (nodeConfigs.isEmpty()) {
        return null;
      }
      ChashConfig.Builder b =
          ChashConfig.builder()
              .ring(settings)
              .failover(policy)
              .migration(migration())
              .nodes(nodeConfigs.values());
      caches.values().forEach(b::cache);
      return b.build();
    }
  }
}
