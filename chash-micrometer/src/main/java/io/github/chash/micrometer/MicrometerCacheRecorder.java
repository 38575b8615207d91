package io.github.chash.micrometer;

import io.github.chash.cache.CacheRecorder;
import io.github.chash.cache.NodeInfo;
import io.github.chash.cache.NodeOperation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.Propagator;
import io.micrometer.observation.transport.SenderContext;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A {@link CacheRecorder} for Micrometer: timers with sub-millisecond buckets in a {@link
 * MeterRegistry}, and one {@link Observation} per call on a remote node in an {@link
 * ObservationRegistry} (a span, when a tracing bridge such as micrometer-tracing-bridge-otel is
 * registered; Spring Boot registers it). Give it to {@code ShardedCaches.builder().recorder(..)};
 * the counters are bound apart, by {@link ChashMeterBinder}. Thread-safe.
 *
 * <p>Timers, each with fixed bucket bounds (service-level objectives, so Prometheus gets the same
 * {@code le} bounds from every JVM and histograms add up across a fleet):
 *
 * <ul>
 *   <li>{@value #CALLS} {@code {cache, node, operation, result}}: calls on remote nodes; {@code
 *       operation} is a {@link NodeOperation#tag()}, {@code result} {@code hit}, {@code miss},
 *       {@code ok}, {@code refused} or {@code error}; bounds 50, 100, 250 and 500 µs, 1, 2.5, 5,
 *       10, 25, 50, 100, 250 and 500 ms, 1 and 2.5 s;
 *   <li>{@value #NEAR_HITS} {@code {cache}}: reads the near cache answered in this JVM; bounds 1,
 *       2.5, 5, 10, 25, 50, 100 and 250 µs and 1 ms;
 *   <li>{@value #LOADS} {@code {cache, result}}: loader runs (the cached method on a miss), {@code
 *       result} {@code success} or {@code failure}; bounds 1, 2.5, 5, 10, 25, 50, 100, 250 and 500
 *       ms, 1, 2.5, 5 and 10 s.
 * </ul>
 *
 * <p>Counters: {@value #EJECTIONS} {@code {node, cause}} and {@value #READMISSIONS} {@code {node,
 * cause}} (causes as {@link CacheRecorder#ejected} and {@link CacheRecorder#readmitted} name them).
 *
 * <p>Observations are named {@value #OBSERVATION}, with the contextual name {@code "<operation>
 * <cache>"} (OpenTelemetry's {@code {db.operation.name} {db.namespace}} span name), and the
 * attributes of OpenTelemetry's database conventions: low-cardinality {@code db.system.name}
 * ({@code redis}, {@code memcached}), {@code db.operation.name}, {@code db.namespace} (the cache),
 * {@code server.address} and {@code server.port} (the node's configured endpoint), {@code
 * cache.name}, {@code cache.hit} (reads only), {@code chash.node} (the node id), {@code
 * chash.result} and {@code error.type} (failures); high-cardinality {@code network.peer.address}
 * and {@code network.peer.port}, the endpoint that was called.
 */
public final class MicrometerCacheRecorder implements CacheRecorder {
  /** The timer of remote node calls. */
  public static final String CALLS = "chash.node.calls";

  /** The timer of near-cache hits. */
  public static final String NEAR_HITS = "chash.near.hits";

  /** The timer of loader runs. */
  public static final String LOADS = "chash.cache.loads";

  /** A cache call carries no trace headers: the servers would not read them. */
  private static final Propagator.Setter<Object> NO_HEADERS = (carrier, key, value) -> {};

  /** The counter of ejections by cause. */
  public static final String EJECTIONS = "chash.node.ejection.causes";

  /** The counter of readmissions by cause. */
  public static final String READMISSIONS = "chash.node.readmission.causes";

  /** The name of the Observation made for each call on a remote node. */
  public static final String OBSERVATION = "chash.cache.operation";

  /** Bucket bounds of {@value #CALLS}: 50 µs to 2.5 s (the node timeout is 100 ms by default). */
  private static final Duration[] CALL_BOUNDS =
      durations(
          "50us", "100us", "250us", "500us", "1ms", "2500us", "5ms", "10ms", "25ms", "50ms",
          "100ms", "250ms", "500ms", "1s", "2500ms");

  /** Bucket bounds of {@value #NEAR_HITS}: 1 µs to 1 ms (a near hit takes about 100 ns). */
  private static final Duration[] NEAR_BOUNDS =
      durations("1us", "2500ns", "5us", "10us", "25us", "50us", "100us", "250us", "1ms");

  /** Bucket bounds of {@value #LOADS}: 1 ms to 10 s. */
  private static final Duration[] LOAD_BOUNDS =
      durations(
          "1ms", "2500us", "5ms", "10ms", "25ms", "50ms", "100ms", "250ms", "500ms", "1s", "2500ms",
          "5s", "10s");

  private static final String[] RESULTS = {"hit", "miss", "ok", "refused", "error"};

  private final MeterRegistry meters;
  private final ObservationRegistry observations;
  private final Tags tags;

  /**
   * A recorder of timers only.
   *
   * @param meters where the timers and counters go
   */
  public MicrometerCacheRecorder(MeterRegistry meters) {
    this(meters, ObservationRegistry.NOOP, Tags.empty());
  }

  /**
   * A recorder of timers and Observations.
   *
   * @param meters where the timers and counters go, or null for none (Observations only)
   * @param observations where the Observations go ({@link ObservationRegistry#NOOP} for none)
   * @param tags tags added to every meter (none: {@link Tags#empty()})
   */
  public MicrometerCacheRecorder(
      MeterRegistry meters, ObservationRegistry observations, Tags tags) {
    this.meters = meters;
    this.observations = Objects.requireNonNull(observations, "observations");
    this.tags = Objects.requireNonNull(tags, "tags");
  }

  @Override
  public Operations cache(String cacheName) {
    return new CacheTimers(cacheName);
  }

  @Override
  public void nodesServed(Collection<String> nodeIds) {
    if (meters != null) {
      for (String nodeId : nodeIds) {
        EJECTION_CAUSES.forEach(cause -> ejections(nodeId, cause));
        READMISSION_CAUSES.forEach(cause -> readmissions(nodeId, cause));
      }
    }
  }

  @Override
  public void ejected(String nodeId, String cause) {
    if (meters != null) {
      ejections(nodeId, cause).increment();
    }
  }

  @Override
  public void readmitted(String nodeId, String cause) {
    if (meters != null) {
      readmissions(nodeId, cause).increment();
    }
  }

  private Counter ejections(String nodeId, String cause) {
    return Counter.builder(EJECTIONS)
        .tags(tags)
        .tag("node", nodeId)
        .tag("cause", cause)
        .description("Times the node was ejected from the live ring, by cause")
        .register(meters);
  }

  private Counter readmissions(String nodeId, String cause) {
    return Counter.builder(READMISSIONS)
        .tags(tags)
        .tag("node", nodeId)
        .tag("cause", cause)
        .description("Times the node rejoined the live ring, by how (flushed or kept)")
        .register(meters);
  }

  /** One cache's timers, registered once (per node and operation when first used). */
  private final class CacheTimers implements Operations {
    private final String cache;
    private final Tags cacheTags;
    private final Timer nearHits;
    private final Timer loaded;
    private final Timer loadFailed;
    private final boolean observed;

    /** Per node id: the call timers, at [operation.ordinal() * RESULTS.length + result]. */
    private final ConcurrentHashMap<String, Timer[]> calls = new ConcurrentHashMap<>();

    CacheTimers(String cache) {
      this.cache = cache;
      this.cacheTags = tags.and("cache", cache);
      this.observed = !observations.isNoop();
      if (meters == null) {
        nearHits = loaded = loadFailed = null;
        return;
      }
      nearHits =
          Timer.builder(NEAR_HITS)
              .tags(cacheTags)
              .description("Reads the near cache answered in this JVM, without a node call")
              .serviceLevelObjectives(NEAR_BOUNDS)
              .register(meters);
      loaded = loadTimer("success");
      loadFailed = loadTimer("failure");
    }

    private Timer loadTimer(String result) {
      return Timer.builder(LOADS)
          .tags(cacheTags)
          .tag("result", result)
          .description("Loader runs (the cached method on a miss): success when it returned")
          .serviceLevelObjectives(LOAD_BOUNDS)
          .register(meters);
    }

    @Override
    public boolean timed() {
      return meters != null || observed;
    }

    @Override
    public void nearHit(long nanos) {
      if (nearHits != null) {
        nearHits.record(nanos, TimeUnit.NANOSECONDS);
      }
    }

    @Override
    public void loaded(long nanos, boolean success) {
      Timer timer = success ? loaded : loadFailed;
      if (timer != null) {
        timer.record(nanos, TimeUnit.NANOSECONDS);
      }
    }

    @Override
    public Object callStarted(NodeInfo node, NodeOperation operation) {
      if (!observed) {
        return null;
      }
      // a SenderContext of kind CLIENT: a tracing bridge then makes a client span, as for any call
      // to a database (Lettuce does the same); nothing is propagated, there are no headers to set
      Observation observation =
          Observation.createNotStarted(
                  OBSERVATION, () -> new SenderContext<>(NO_HEADERS, Kind.CLIENT), observations)
              .contextualName(operation.tag() + " " + cache)
              .lowCardinalityKeyValue("db.system.name", node.system())
              .lowCardinalityKeyValue("db.operation.name", operation.tag())
              .lowCardinalityKeyValue("db.namespace", cache)
              .lowCardinalityKeyValue("cache.name", cache)
              .lowCardinalityKeyValue("chash.node", node.id());
      if (node.host() != null) {
        observation
            .lowCardinalityKeyValue("server.address", node.host())
            .highCardinalityKeyValue("network.peer.address", node.host());
      }
      if (node.port() >= 0) {
        String port = Integer.toString(node.port());
        observation
            .lowCardinalityKeyValue("server.port", port)
            .highCardinalityKeyValue("network.peer.port", port);
      }
      return observation.start();
    }

    @Override
    public void callEnded(
        Object started,
        NodeInfo node,
        NodeOperation operation,
        String result,
        long nanos,
        Throwable failure) {
      if (meters != null) {
        callTimer(node.id(), operation, result).record(nanos, TimeUnit.NANOSECONDS);
      }
      if (started instanceof Observation observation) {
        observation.lowCardinalityKeyValue("chash.result", result);
        if (result.equals("hit") || result.equals("miss")) {
          observation.lowCardinalityKeyValue("cache.hit", Boolean.toString(result.equals("hit")));
        }
        if (failure != null) {
          observation.lowCardinalityKeyValue("error.type", failure.getClass().getName());
          observation.error(failure);
        }
        observation.stop();
      }
    }

    private Timer callTimer(String nodeId, NodeOperation operation, String result) {
      Timer[] timers =
          calls.computeIfAbsent(
              nodeId, id -> new Timer[NodeOperation.values().length * RESULTS.length]);
      int index = operation.ordinal() * RESULTS.length + resultIndex(result);
      Timer timer = timers[index];
      if (timer == null) {
        // two threads may both register it: the registry gives both the same timer
        timer =
            Timer.builder(CALLS)
                .tags(cacheTags)
                .tag("node", nodeId)
                .tag("operation", operation.tag())
                .tag("result", result)
                .description("Calls on remote cache nodes, by node, operation and result")
                .serviceLevelObjectives(CALL_BOUNDS)
                .register(meters);
        timers[index] = timer;
      }
      return timer;
    }
  }

  private static int resultIndex(String result) {
    for (int i = 0; i < RESULTS.length; i++) {
      if (RESULTS[i].equals(result)) {
        return i;
      }
    }
    throw new IllegalArgumentException("unknown call result \"" + result + "\"");
  }

  private static Duration[] durations(String... values) {
    Duration[] out = new Duration[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = parse(values[i]);
    }
    return out;
  }

  private static Duration parse(String value) {
    String unit = value.replaceAll("[0-9]", "");
    long n = Long.parseLong(value.substring(0, value.length() - unit.length()));
    return switch (unit) {
      case "ns" -> Duration.ofNanos(n);
      case "us" -> Duration.ofNanos(n * 1_000);
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      default -> throw new IllegalArgumentException("unknown unit in \"" + value + "\"");
    };
  }
}
