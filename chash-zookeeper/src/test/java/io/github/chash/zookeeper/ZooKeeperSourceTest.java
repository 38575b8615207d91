package io.github.chash.zookeeper;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import io.github.chash.membership.MembershipFollower;
import io.github.chash.membership.MembershipStatus;
import io.github.chash.membership.MembershipStatus.SourceState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A manager following a znode of a real ZooKeeper server (Curator's TestingServer, in-process). */
class ZooKeeperSourceTest {
  private static final ChashConfig BASE =
      ChashConfigs.parse("nodes:\n  - { id: a }\n  - { id: b }\ncaches:\n  users: {}\n", "base");

  /** How long a change may take to arrive at most before the test fails; not the measured bound. */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private TestingServer server;
  private CuratorFramework writer;
  private ShardedCacheManager manager;
  private MembershipFollower follower;

  @BeforeEach
  void start() throws Exception {
    server = new TestingServer(true);
    writer = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
    writer.start();
    writer.create().creatingParentsIfNeeded().forPath("/chash/nodes", nodes("a", "b"));
    manager = ShardedCaches.create(BASE);
    follower =
        MembershipFollower.follow(
            manager,
            BASE,
            ZooKeeperSource.connect(
                server.getConnectString(), "/chash/nodes", Duration.ofSeconds(10)));
  }

  @AfterEach
  void stop() throws Exception {
    follower.close();
    manager.close();
    writer.close();
    server.close();
  }

  private static byte[] nodes(String... ids) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : ids) {
      yaml.append("  - { id: ").append(id).append(" }\n");
    }
    return yaml.toString().getBytes(UTF_8);
  }

  private long write(byte[] data) throws Exception {
    Stat stat = writer.setData().forPath("/chash/nodes", data);
    return stat.getMzxid();
  }

  private List<String> ids() {
    return manager.nodeConfigs().stream().map(NodeConfig::id).toList();
  }

  /** Writes, and returns how long the follower took to apply the write's epoch, in nanoseconds. */
  private long converge(byte[] data) throws Exception {
    long begin = System.nanoTime();
    long epoch = write(data);
    assertThat(follower.awaitEpoch(epoch, PATIENCE)).isTrue();
    return System.nanoTime() - begin;
  }

  @Test
  void theManagerFollowsTheZnodeAsNodesAreAddedAndRemoved() throws Exception {
    await(() -> !follower.status().behind());
    assertThat(follower.status().state()).isEqualTo(SourceState.CONNECTED);

    List<Long> nanos = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      nanos.add(converge(nodes("a", "b", "c")));
      assertThat(ids()).containsExactly("a", "b", "c");
      nanos.add(converge(nodes("a", "c")));
      assertThat(ids()).containsExactly("a", "c");
      nanos.add(converge(nodes("a", "b")));
    }
    report(nanos);
    assertThat(follower.status().behind()).isFalse();
  }

  @Test
  void aStoppedServerLeavesTheRingAsItWasAndTheChangeArrivesWhenItIsBack() throws Exception {
    converge(nodes("a", "b", "c"));
    long applied = follower.status().appliedEpoch();

    server.stop();
    await(() -> follower.status().state() == SourceState.UNREACHABLE);
    MembershipStatus down = follower.status();
    assertThat(down.appliedEpoch()).isEqualTo(applied);
    assertThat(ids()).containsExactly("a", "b", "c");

    server.restart();
    await(() -> follower.status().state() == SourceState.CONNECTED);
    converge(nodes("a", "d"));
    assertThat(ids()).containsExactly("a", "d");
  }

  @Test
  void anOlderStateOfTheSourceIsIgnored() throws Exception {
    // written before the ring the follower runs: a smaller mzxid
    writer.create().forPath("/chash/older", nodes("x"));
    converge(nodes("a", "b", "c"));

    ZooKeeperSource older =
        ZooKeeperSource.connect(server.getConnectString(), "/chash/older", Duration.ofSeconds(10));
    try {
      older.start(follower); // delivers its state, as a source lagging behind would
      await(() -> follower.status().ignored() == 1);
    } finally {
      older.close();
    }
    assertThat(ids()).containsExactly("a", "b", "c");
  }

  @Test
  void badDataAndADeletedZnodeKeepTheLastGoodRing() throws Exception {
    converge(nodes("a", "b", "c"));
    long bad = write("nodes:\n  - { id: a, weight: -1 }\n".getBytes(UTF_8));
    await(() -> follower.status().latestEpoch() == bad);
    assertThat(follower.status().behind()).isTrue();
    assertThat(follower.status().problem()).contains("/chash/nodes:2:", "weight");
    assertThat(ids()).containsExactly("a", "b", "c");

    writer.delete().forPath("/chash/nodes");
    await(() -> follower.status().problem().contains("deleted"));
    assertThat(ids()).containsExactly("a", "b", "c");

    // re-created: its version starts at 0 again, its mzxid does not
    Stat stat = new Stat();
    writer.create().storingStatIn(stat).forPath("/chash/nodes", nodes("a", "e"));
    assertThat(follower.awaitEpoch(stat.getMzxid(), PATIENCE)).isTrue();
    assertThat(ids()).containsExactly("a", "e");
    assertThat(follower.status().behind()).isFalse();
  }

  /** Polls the condition, every 10 ms, until it holds, for {@link #PATIENCE} at most. */
  private static void await(BooleanSupplier condition) {
    Awaitility.await("condition met in time")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .atMost(PATIENCE)
        .until(condition::getAsBoolean);
  }

  private static void report(List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    System.out.printf(
        "zookeeper convergence over %d changes: median %.1f ms, max %.1f ms%n",
        sorted.size(), sorted.get(sorted.size() / 2) / 1e6, sorted.get(sorted.size() - 1) / 1e6);
  }
}
