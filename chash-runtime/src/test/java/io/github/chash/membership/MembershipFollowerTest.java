package io.github.chash.membership;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import io.github.chash.membership.MembershipStatus.SourceState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MembershipFollowerTest {
  private static final ChashConfig BASE =
      ChashConfigs.parse("nodes:\n  - { id: a }\n  - { id: b }\ncaches:\n  users: {}\n", "base");

  private ShardedCacheManager manager;
  private final HandSource source = new HandSource();
  private MembershipFollower follower;

  @BeforeEach
  void start() {
    manager = ShardedCaches.create(BASE);
    follower = MembershipFollower.follow(manager, BASE, source);
  }

  @AfterEach
  void stop() {
    follower.close();
    manager.close();
  }

  private List<String> ids() {
    return manager.nodeConfigs().stream().map(NodeConfig::id).toList();
  }

  private static RingUpdate nodes(long epoch, String... ids) {
    return RingUpdate.ofNodes(
        epoch, "r" + epoch, java.util.Arrays.stream(ids).map(NodeConfig::local).toList());
  }

  @Test
  void aNewerEpochMovesTheRingAndKeepsTheRestOfTheConfiguration() {
    assertThat(follower.status().behind()).isTrue(); // nothing applied yet
    source.listener.connected();
    source.listener.update(nodes(5, "a", "b", "c"));

    assertThat(ids()).containsExactly("a", "b", "c");
    assertThat(manager.cacheNames()).containsExactly("users");
    MembershipStatus status = follower.status();
    assertThat(status.appliedEpoch()).isEqualTo(5);
    assertThat(status.appliedRevision()).isEqualTo("r5");
    assertThat(status.appliedAt()).isNotNull();
    assertThat(status.state()).isEqualTo(SourceState.CONNECTED);
    assertThat(status.behind()).isFalse();
  }

  @Test
  void anOlderOrRepeatedEpochIsIgnored() {
    source.listener.update(nodes(5, "a", "b", "c"));
    source.listener.update(nodes(4, "a"));
    source.listener.update(nodes(5, "a", "b"));

    assertThat(ids()).containsExactly("a", "b", "c");
    assertThat(follower.status().appliedEpoch()).isEqualTo(5);
    assertThat(follower.status().ignored()).isEqualTo(2);
    assertThat(follower.status().behind()).isFalse();
  }

  @Test
  void badDataKeepsTheLastGoodRingAndTheJvmReportsItIsBehind() {
    source.listener.update(nodes(5, "a", "b", "c"));
    source.listener.invalid(6, "nodes[0].id: bad");
    assertThat(ids()).containsExactly("a", "b", "c");
    assertThat(follower.status().behind()).isTrue();
    assertThat(follower.status().problem()).contains("epoch 6", "nodes[0].id: bad");

    source.listener.update(nodes(7)); // no nodes at all
    assertThat(ids()).containsExactly("a", "b", "c");
    assertThat(follower.status().latestEpoch()).isEqualTo(7);
    assertThat(follower.status().problem()).contains("no nodes at epoch 7");

    source.listener.update(nodes(8, "a", "d"));
    assertThat(ids()).containsExactly("a", "d");
    assertThat(follower.status().behind()).isFalse();
    assertThat(follower.status().problem()).isNull();
  }

  @Test
  void aStateTheManagerCannotApplyKeepsTheLastGoodRing() {
    source.listener.update(nodes(5, "a", "b", "c"));
    // no Redis node factory in the runtime's tests: reconfigure refuses
    source.listener.update(
        RingUpdate.ofNodes(
            6, "r6", List.of(NodeConfig.local("a"), NodeConfig.redis("r", "redis://127.0.0.1:1"))));

    assertThat(ids()).containsExactly("a", "b", "c");
    assertThat(follower.status().appliedEpoch()).isEqualTo(5);
    assertThat(follower.status().behind()).isTrue();
    assertThat(follower.status().problem()).startsWith("epoch 6 cannot be applied");
  }

  @Test
  void anUnreachableSourceLeavesTheRingAsItWas() {
    source.listener.connected();
    source.listener.update(nodes(5, "a", "b", "c"));
    source.listener.unreachable("connection refused");

    MembershipStatus status = follower.status();
    assertThat(status.state()).isEqualTo(SourceState.UNREACHABLE);
    assertThat(status.since()).isNotNull();
    assertThat(ids()).containsExactly("a", "b", "c");
    assertThat(status.appliedEpoch()).isEqualTo(5);

    source.listener.connected();
    assertThat(follower.status().state()).isEqualTo(SourceState.CONNECTED);
  }

  @Test
  void aWholeConfigurationReplacesCachesToo() throws InterruptedException {
    RingUpdate update =
        RingUpdate.parse(
            3,
            "r3",
            "nodes:\n  - { id: x }\ncaches:\n  users: {}\n  orders: {}\n".getBytes(UTF_8),
            "source");
    assertThat(update.config()).isNotNull();
    source.listener.update(update);

    assertThat(follower.awaitEpoch(3, Duration.ZERO)).isTrue();
    assertThat(ids()).containsExactly("x");
    assertThat(manager.cacheNames()).containsExactly("users", "orders");
  }

  @Test
  void aDocumentOfNodesOnlyIsANodeList() {
    RingUpdate update =
        RingUpdate.parse(3, "r3", "nodes:\n  - { id: x }\n".getBytes(UTF_8), "source");
    assertThat(update.config()).isNull();
    assertThat(update.nodes()).extracting(NodeConfig::id).containsExactly("x");
  }
}
