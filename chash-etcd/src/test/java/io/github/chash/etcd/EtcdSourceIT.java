package io.github.chash.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import io.github.chash.membership.MembershipFollower;
import io.github.chash.membership.MembershipStatus.SourceState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manager following a key, or a prefix, of a real etcd-server process. */
class EtcdSourceIT {
  private static final ChashConfig BASE =
      ChashConfigs.parse("nodes:\n  - { id: a }\n  - { id: b }\ncaches:\n  users: {}\n", "base");

  /** How long a change may take to arrive at most before the test fails; not the measured bound. */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private static final Duration PROBE = Duration.ofMillis(500);

  @TempDir Path dir;
  private EtcdServerProcess etcd;
  private Client writerClient;
  private KV writer;
  private ShardedCacheManager manager;
  private Client sourceClient;
  private EtcdSource source;
  private MembershipFollower follower;

  @BeforeEach
  void start() throws Exception {
    etcd = new EtcdServerProcess(dir);
    writerClient = Client.builder().endpoints(etcd.endpoint()).build();
    writer = writerClient.getKVClient();
    manager = ShardedCaches.create(BASE);
    sourceClient = Client.builder().endpoints(etcd.endpoint()).build();
  }

  @AfterEach
  void stop() {
    if (follower != null) {
      follower.close();
    }
    manager.close();
    sourceClient.close();
    writerClient.close();
    etcd.close();
  }

  private void followKey() {
    source = EtcdSource.key(sourceClient, "/chash/ring", PROBE);
    follower = MembershipFollower.follow(manager, BASE, source);
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, UTF_8);
  }

  private static String nodes(String... ids) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : ids) {
      yaml.append("  - { id: ").append(id).append(" }\n");
    }
    return yaml.toString();
  }

  private long put(String key, String value) throws Exception {
    return writer.put(bytes(key), bytes(value)).get(30, TimeUnit.SECONDS).getHeader().getRevision();
  }

  private long delete(String key) throws Exception {
    return writer.delete(bytes(key)).get(30, TimeUnit.SECONDS).getHeader().getRevision();
  }

  private List<String> ids() {
    return manager.nodeConfigs().stream().map(NodeConfig::id).toList();
  }

  /** Puts, and returns how long the follower took to apply the put's revision, in nanoseconds. */
  private long converge(String key, String value) throws Exception {
    long begin = System.nanoTime();
    long revision = put(key, value);
    assertThat(follower.awaitEpoch(revision, PATIENCE)).isTrue();
    return System.nanoTime() - begin;
  }

  @Test
  void theManagerFollowsAKeyAsNodesAreAddedAndRemoved() throws Exception {
    long first = put("/chash/ring", nodes("a", "b"));
    followKey();
    assertThat(follower.awaitEpoch(first, PATIENCE)).isTrue();
    assertThat(follower.status().state()).isEqualTo(SourceState.CONNECTED);

    List<Long> nanos = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      nanos.add(converge("/chash/ring", nodes("a", "b", "c")));
      assertThat(ids()).containsExactly("a", "b", "c");
      nanos.add(converge("/chash/ring", nodes("a", "c")));
      assertThat(ids()).containsExactly("a", "c");
      nanos.add(converge("/chash/ring", nodes("a", "b")));
    }
    report("key", nanos);
    assertThat(follower.status().behind()).isFalse();
  }

  @Test
  void theManagerFollowsNodesRegisteredUnderAPrefix() throws Exception {
    put("/chash/nodes/a", "{ id: a }");
    long revision = put("/chash/nodes/b", "{ id: b }");
    source = EtcdSource.prefix(sourceClient, "/chash/nodes/", PROBE);
    follower = MembershipFollower.follow(manager, BASE, source);
    assertThat(follower.awaitEpoch(revision, PATIENCE)).isTrue();

    List<Long> nanos = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      nanos.add(converge("/chash/nodes/c", "{ id: c }"));
      assertThat(ids()).containsExactly("a", "b", "c");
      long begin = System.nanoTime();
      assertThat(follower.awaitEpoch(delete("/chash/nodes/c"), PATIENCE)).isTrue();
      nanos.add(System.nanoTime() - begin);
      assertThat(ids()).containsExactly("a", "b");
    }
    report("prefix", nanos);
  }

  @Test
  void aStoppedServerLeavesTheRingAsItWasAndTheChangeArrivesWhenItIsBack() throws Exception {
    put("/chash/ring", nodes("a", "b"));
    followKey();
    converge("/chash/ring", nodes("a", "b", "c"));
    long applied = follower.status().appliedEpoch();

    etcd.stop();
    await(() -> follower.status().state() == SourceState.UNREACHABLE);
    assertThat(follower.status().appliedEpoch()).isEqualTo(applied);
    assertThat(ids()).containsExactly("a", "b", "c");

    etcd.start();
    await(() -> follower.status().state() == SourceState.CONNECTED);
    converge("/chash/ring", nodes("a", "d"));
    assertThat(ids()).containsExactly("a", "d");
  }

  @Test
  void aWatchFromACompactedRevisionIsAnsweredByReadingAnew() throws Exception {
    long start = put("/chash/ring", nodes("a", "b"));
    followKey();
    assertThat(follower.awaitEpoch(start, PATIENCE)).isTrue();
    put("/chash/other", "x");
    long now = put("/chash/other", "y");
    writerClient.getKVClient().compact(now).get(30, TimeUnit.SECONDS);

    source.rewatchFrom(start); // compacted away: etcd cancels the watch
    long revision = converge("/chash/ring", nodes("a", "b", "e"));
    assertThat(revision).isPositive();
    assertThat(ids()).containsExactly("a", "b", "e");
  }

  @Test
  void anOlderStateOfTheSourceIsIgnored() throws Exception {
    put("/chash/older", nodes("x")); // a smaller mod revision than the ring's
    put("/chash/ring", nodes("a", "b"));
    followKey();
    converge("/chash/ring", nodes("a", "b", "c"));

    EtcdSource older = EtcdSource.key(sourceClient, "/chash/older", PROBE);
    try {
      older.start(follower); // delivers its state, as a source lagging behind would
      await(() -> follower.status().ignored() >= 1);
    } finally {
      older.close();
    }
    assertThat(ids()).containsExactly("a", "b", "c");
    assertThat(follower.status().behind()).isFalse();
  }

  @Test
  void badDataKeepsTheLastGoodRing() throws Exception {
    put("/chash/ring", nodes("a", "b"));
    followKey();
    converge("/chash/ring", nodes("a", "b", "c"));
    long bad = put("/chash/ring", "nodes:\n  - { id: a, weight: -1 }\n");
    await(() -> follower.status().latestEpoch() == bad);
    assertThat(follower.status().behind()).isTrue();
    assertThat(follower.status().problem()).contains("/chash/ring:2:", "weight");
    assertThat(ids()).containsExactly("a", "b", "c");
  }

  /** Polls the condition, every 10 ms, until it holds, for {@link #PATIENCE} at most. */
  private static void await(BooleanSupplier condition) {
    Awaitility.await("condition met in time")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .atMost(PATIENCE)
        .until(condition::getAsBoolean);
  }

  private static void report(String layout, List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    System.out.printf(
        "etcd %s convergence over %d changes: median %.1f ms, max %.1f ms%n",
        layout,
        sorted.size(),
        sorted.get(sorted.size() / 2) / 1e6,
        sorted.get(sorted.size() - 1) / 1e6);
  }
}
