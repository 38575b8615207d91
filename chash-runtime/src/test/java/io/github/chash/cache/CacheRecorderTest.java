package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.NearConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.internal.cache.InterceptedCache;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a manager reports to its {@link CacheRecorder}, and the protocol's counts beside it. */
class CacheRecorderTest {
  private static final ValueType STRING = ValueType.of(String.class);
  private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

  private final FakeTicker ticker = new FakeTicker();
  private final FakeRedisNode remote =
      new FakeRedisNode(new TrackingNode("r", true, ticker), "10.0.0.7:6380");
  private ShardedCacheManager manager;

  @AfterEach
  void close() {
    if (manager != null) {
      manager.close();
    }
  }

  private InterceptedCache users(CacheRecorder recorder, CacheConfig users, CacheNode node) {
    manager =
        ShardedCaches.builder()
            .ticker(ticker)
            .scheduleProbes(false)
            .failover(
                new FailoverConfig(
                    1, Duration.ofSeconds(30), Duration.ofMillis(100), OnRejoin.FLUSH))
            .recorder(recorder)
            .node(node, 1)
            .cache(users)
            .build();
    return InterceptedCache.of(manager.cache("users"));
  }

  @Test
  void remoteCalls_reportedWithOperationResultAndNode() {
    RecordingRecorder recorder = new RecordingRecorder(true);
    InterceptedCache users = users(recorder, new CacheConfig("users", TEN_MINUTES), remote);
    String key = users.routingKey(42, "test");

    users.put(key, "v1");
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v1");
    users.evict(key);
    assertThat(users.getIfPresent(key, STRING)).isNull();

    assertThat(recorder.events)
        .containsExactly(
            "users r put ok redis@10.0.0.7:6380",
            "users r get hit redis@10.0.0.7:6380",
            "users r evict ok redis@10.0.0.7:6380",
            "users r get miss redis@10.0.0.7:6380");
  }

  @Test
  void failedCall_reportedAsError_thenTheEjectionWithItsCause() {
    RecordingRecorder recorder = new RecordingRecorder(true);
    InterceptedCache users = users(recorder, new CacheConfig("users", TEN_MINUTES), remote);
    String key = users.routingKey(42, "test");
    remote.failing = true;

    assertThat(users.getIfPresent(key, STRING)).isNull();

    assertThat(recorder.events)
        .containsExactly("users r get error redis@10.0.0.7:6380 failed", "ejected r failures");
    remote.failing = false;
    ticker.advance(Duration.ofSeconds(31));
    ManagerHooks.probe(manager);
    assertThat(recorder.events).endsWith("readmitted r flushed");
    assertThat(manager.nodeStats().get("r").readmissionCount()).isEqualTo(1);
  }

  @Test
  void nodesServed_toldAtBuildAndAfterEachReconfigure() {
    RecordingRecorder recorder = new RecordingRecorder(false);
    manager =
        ShardedCaches.builder()
            .config(
                ChashConfigs.parse(
                    "nodes: [{id: a, type: local}, {id: b, type: local}]\ncaches: {users: {}}\n",
                    "two.yaml"))
            .recorder(recorder)
            .build();
    assertThat(recorder.served).containsExactly(List.of("a", "b"));

    manager.reconfigure(
        ChashConfigs.parse(
            "nodes: [{id: a, type: local}, {id: b, type: local}, {id: c, type: local}]\n"
                + "caches: {users: {}}\n",
            "three.yaml"));

    assertThat(recorder.served).containsExactly(List.of("a", "b"), List.of("a", "b", "c"));
  }

  @Test
  void loadsTimed_nearHitsSampled() throws Throwable {
    RecordingRecorder recorder = new RecordingRecorder(true);
    InterceptedCache users =
        users(
            recorder,
            new CacheConfig("users", TEN_MINUTES)
                .withNear(new NearConfig(100, Duration.ofMinutes(5))),
            remote);
    String key = users.routingKey(42, "test");

    assertThat(users.get(key, STRING, () -> "loaded", false, false)).isEqualTo("loaded");
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("loaded"); // from the node, kept
    // one hot key, read twice in each of 16 x NEAR_HIT_SAMPLING sampling windows (8.4 ms apart:
    // 137 s, inside the near ttl and the node's): it is timed in the windows that draw it, about
    // one in NEAR_HIT_SAMPLING
    int windows = 16 * CacheRecorder.NEAR_HIT_SAMPLING;
    int nearReads = 2 * windows;
    for (int i = 0; i < windows; i++) {
      assertThat(users.getIfPresent(key, STRING)).isEqualTo("loaded"); // near
      assertThat(users.get(key, STRING, () -> "not run", false, false)).isEqualTo("loaded");
      ticker.advance(Duration.ofNanos(1L << 23));
    }
    assertThatThrownBy(
            () ->
                users.get(
                    users.routingKey(43, "test"),
                    STRING,
                    () -> {
                      throw new IllegalStateException("boom");
                    },
                    false,
                    false))
        .hasMessage("boom");

    assertThat(recorder.events)
        .filteredOn(e -> !e.contains(" r ") && !e.contains("near hit"))
        .containsExactly("users load success", "users load failure");
    // about 16 of the windows draw the key, each timing both its reads: none timed would be
    // a hot key never sampled, all (or reads drawn one by one) the sampling gone
    long timed = recorder.events.stream().filter(e -> e.equals("users near hit")).count();
    assertThat(timed).isBetween(2L, nearReads / 8L);
    assertThat(timed % 2).as("a window times all of its key's hits or none").isZero();
    assertThat(recorder.events).noneMatch(e -> e.contains("near hit negative"));
    assertThat(users.stats().nearHitCount()).isEqualTo(nearReads);
  }

  @Test
  void untimedRecorder_isToldNothing_andLocalShardsAreNeverTimed() {
    RecordingRecorder untimed = new RecordingRecorder(false);
    InterceptedCache users = users(untimed, new CacheConfig("users", TEN_MINUTES), remote);
    users.put(users.routingKey(1, "test"), "v");
    users.getIfPresent(users.routingKey(1, "test"), STRING);
    assertThat(untimed.events).isEmpty();
    manager.close();

    RecordingRecorder timed = new RecordingRecorder(true);
    InterceptedCache local =
        users(timed, new CacheConfig("users", TEN_MINUTES), CacheNodes.local("l", 100, ticker));
    local.put(local.routingKey(1, "test"), "v");
    assertThat(local.getIfPresent(local.routingKey(1, "test"), STRING)).isEqualTo("v");
    assertThat(timed.events).isEmpty();
  }

  @Test
  void invalidationsReceivedAndLost_countedOnTheNode() {
    InterceptedCache users =
        users(
            CacheRecorder.NONE,
            new CacheConfig("users", TEN_MINUTES)
                .withNear(new NearConfig(100, Duration.ofSeconds(30))),
            remote);
    String key = users.routingKey(42, "test");
    users.put(key, "v1");

    remote.inner.channel().changed(key);
    remote.inner.channel().changed(key);
    remote.inner.channel().lost();

    CacheStats node = manager.nodeStats().get("r");
    assertThat(node.invalidationCount()).isEqualTo(2);
    assertThat(node.invalidationLossCount()).isEqualTo(1);
  }

  @Test
  void nodeInfo_addressParts() {
    assertThat(new NodeInfo("a", "redis", "cache-1:6380").host()).isEqualTo("cache-1");
    assertThat(new NodeInfo("a", "redis", "cache-1:6380").port()).isEqualTo(6380);
    assertThat(new NodeInfo("a", "redis", "s1:26379,s2:26379").port()).isEqualTo(-1);
    assertThat(new NodeInfo("a", "chash.local", null).host()).isNull();
  }
}
