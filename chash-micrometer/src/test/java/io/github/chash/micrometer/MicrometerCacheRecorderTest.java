package io.github.chash.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfigs;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.redis.RedisServerProcess;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The timers and Observations of a manager over a real redis-server. */
class MicrometerCacheRecorderTest {
  private static final ValueType STRING = ValueType.of(String.class);
  private static RedisServerProcess redis;

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
  private ShardedCacheManager manager;

  @BeforeAll
  static void startRedis() {
    redis = RedisServerProcess.start();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @AfterEach
  void close() {
    if (manager != null) {
      manager.close();
    }
  }

  private InterceptedCache users(ObservationRegistry observations) {
    String yaml =
        "nodes:\n"
            + "  - {id: r1, type: redis, uri: '"
            + redis.uri()
            + "'}\n"
            + "caches:\n"
            + "  users: {ttl: 10m, near: {maximumSize: 100, ttl: 30s}}\n";
    manager =
        ShardedCaches.builder()
            .config(ChashConfigs.parse(yaml, "test.yaml"))
            .recorder(new MicrometerCacheRecorder(meters, observations, Tags.of("app", "shop")))
            .build();
    awaitServing();
    new ChashMeterBinder(manager, "chash").bindTo(meters);
    return InterceptedCache.of(manager.cache("users"));
  }

  /**
   * Waits (up to a minute, on a loaded machine) until the node answers and its invalidation channel
   * is on, so that reads reach it and near entries are kept: readiness, not an interleaving.
   */
  private void awaitServing() {
    Awaitility.await("node r1 never tracked its keys")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .atMost(Duration.ofMinutes(1))
        .ignoreExceptionsInstanceOf(RuntimeException.class) // not answering yet
        .until(
            () -> {
              manager.node("r1").ping();
              return io.github.chash.cache.ManagerHooks.tracking(manager, "r1");
            });
  }

  private ObservationRegistry recordingObservations() {
    ObservationRegistry registry = ObservationRegistry.create();
    registry
        .observationConfig()
        .observationHandler(
            new ObservationHandler<>() {
              @Override
              public boolean supportsContext(Observation.Context context) {
                return true;
              }

              @Override
              public void onStop(Observation.Context context) {
                stopped.add(context);
              }
            });
    return registry;
  }

  /** {@code operation/result} of every call timer, with its count. */
  private Map<String, Long> calls() {
    return meters.find(MicrometerCacheRecorder.CALLS).timers().stream()
        .collect(
            Collectors.toMap(
                t -> t.getId().getTag("operation") + "/" + t.getId().getTag("result"),
                Timer::count,
                Long::sum,
                TreeMap::new));
  }

  @Test
  void remoteCalls_timedPerNodeOperationAndResult_nearHitsAndLoadsApart() throws Throwable {
    InterceptedCache users = users(ObservationRegistry.NOOP);
    int keyCount = 64; // all kept near (maximumSize 100)
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < keyCount; i++) {
      String key = users.routingKey(10_000 + i, "test"); // no other test writes these
      keys.add(key);
      assertThat(users.get(key, STRING, () -> "v1", false, false)).isEqualTo("v1");
      assertThat(users.getIfPresent(key, STRING)).isEqualTo("v1"); // from redis, kept near
    }
    // each ~8 ms window times one key in NEAR_HIT_SAMPLING: read the keys near until a window has
    // drawn one of them (a quarter of the windows do; bounded at a minute on a loaded machine)
    Timer nearTimer = meters.get(MicrometerCacheRecorder.NEAR_HITS).tag("cache", "users").timer();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    int nearReads = 0;
    while (nearTimer.count() == 0 && System.nanoTime() < deadline) {
      for (String key : keys) {
        assertThat(users.getIfPresent(key, STRING)).isEqualTo("v1"); // near
        nearReads++;
      }
    }

    Map<String, Long> calls = calls();
    assertThat(calls).containsKey("get/hit");
    assertThat(calls.keySet()).allMatch(k -> k.matches("(get|write_if|put|evict)/(hit|miss|ok)"));
    Meter.Id id = meters.get(MicrometerCacheRecorder.CALLS).tag("result", "hit").timer().getId();
    assertThat(id.getTags())
        .extracting(t -> t.getKey() + "=" + t.getValue())
        .containsExactlyInAnyOrder(
            "app=shop", "cache=users", "node=r1", "operation=get", "result=hit");
    // near hits are timed on a sample (one key in NEAR_HIT_SAMPLING per window), all counted
    assertThat(nearTimer.count()).isBetween(1L, Math.max(1L, nearReads / 8L));
    assertThat(meters.get(MicrometerCacheRecorder.LOADS).tag("result", "success").timer().count())
        .isEqualTo(keyCount);
    // every read after the loads was a hit, near or on the server (the server's invalidation of a
    // load's own fill may drop a key's near entry once)
    double nearHits =
        meters.get("chash.cache.near.hits").tag("cache", "users").functionCounter().count();
    assertThat(nearHits + calls.get("get/hit")).isEqualTo(nearReads + keyCount);
    assertThat(nearHits).isGreaterThanOrEqualTo(nearReads - keyCount);
  }

  @Test
  void ejectionAndReadmissionCauses_exportedAtZeroBeforeAnyEvent() {
    users(ObservationRegistry.NOOP);

    assertThat(causes(MicrometerCacheRecorder.EJECTIONS))
        .containsExactlyInAnyOrder("r1/failures=0", "r1/write_failures=0", "r1/must_empty=0");
    assertThat(causes(MicrometerCacheRecorder.READMISSIONS))
        .containsExactlyInAnyOrder("r1/flushed=0", "r1/kept=0");
  }

  /** {@code node/cause=count} of every counter of {@code name}. */
  private List<String> causes(String name) {
    return meters.find(name).counters().stream()
        .map(
            c ->
                c.getId().getTag("node") + "/" + c.getId().getTag("cause") + "=" + (long) c.count())
        .toList();
  }

  @Test
  void timers_haveSubMillisecondBucketBounds() {
    InterceptedCache users = users(ObservationRegistry.NOOP);
    users.getIfPresent(users.routingKey(1, "test"), STRING);

    assertThat(bounds(meters.get(MicrometerCacheRecorder.CALLS).timer()))
        .startsWith(0.05, 0.1, 0.25, 0.5, 1.0)
        .endsWith(1000.0, 2500.0);
    assertThat(bounds(meters.get(MicrometerCacheRecorder.NEAR_HITS).timer()))
        .startsWith(0.001, 0.0025, 0.005)
        .endsWith(1.0);
    assertThat(bounds(meters.get(MicrometerCacheRecorder.LOADS).tag("result", "success").timer()))
        .startsWith(1.0, 2.5)
        .endsWith(10_000.0);
  }

  /** A timer's bucket bounds, in milliseconds. */
  private static double[] bounds(Timer timer) {
    return Arrays.stream(timer.takeSnapshot().histogramCounts())
        .mapToDouble(b -> b.bucket(java.util.concurrent.TimeUnit.NANOSECONDS) / 1e6)
        .toArray();
  }

  @Test
  void observations_oneForEachCallThatReachesTheServer_withTheDatabaseConventions()
      throws Throwable {
    InterceptedCache users = users(recordingObservations());
    String key = users.routingKey(7, "test");
    users.get(key, STRING, () -> "v1", false, false);
    // the miss's read, then the lease and the fill: each a call on the server, each one span
    assertThat(stopped).hasSize(3);
    Observation.Context read = stopped.get(0);
    assertThat(read.getName()).isEqualTo("chash.cache.operation");
    assertThat(read.getContextualName()).isEqualTo("get users");
    assertThat(keyValues(read))
        .containsEntry("db.system.name", "redis")
        .containsEntry("db.operation.name", "get")
        .containsEntry("db.namespace", "users")
        .containsEntry("cache.name", "users")
        .containsEntry("cache.hit", "false")
        .containsEntry("chash.node", "r1")
        .containsEntry("server.address", "127.0.0.1")
        .containsEntry("server.port", Integer.toString(redis.port()))
        .containsEntry("network.peer.address", "127.0.0.1");
    assertThat(read.getError()).isNull();
    assertThat(stopped.get(1).getContextualName()).isEqualTo("write_if users");
    assertThat(keyValues(stopped.get(1))).doesNotContainKey("cache.hit");
  }

  private static Map<String, String> keyValues(Observation.Context context) {
    Map<String, String> out = new TreeMap<>();
    for (KeyValue kv : context.getLowCardinalityKeyValues()) {
      out.put(kv.getKey(), kv.getValue());
    }
    for (KeyValue kv : context.getHighCardinalityKeyValues()) {
      out.put(kv.getKey(), kv.getValue());
    }
    return out;
  }
}
