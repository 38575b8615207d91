package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.MigrationConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Live membership on local shards, with a clock the test moves. */
class MembershipTest {
  private static final Duration WINDOW = Duration.ofMinutes(5);
  private final FakeTicker ticker = new FakeTicker();
  private RingCacheManager manager;
  private InterceptedCache users;

  private static ChashConfig config(RingSettings ring, Duration window, String... ids) {
    ChashConfig.Builder b =
        ChashConfig.builder()
            .ring(ring)
            .migration(new MigrationConfig(window))
            .cache(new CacheConfig("users", Duration.ofMinutes(30)));
    for (String id : ids) {
      b.node(NodeConfig.local(id));
    }
    return b.build();
  }

  private void start(ChashConfig config) {
    manager =
        (RingCacheManager)
            ShardedCaches.builder().config(config).ticker(ticker).scheduleProbes(false).build();
    users = InterceptedCache.of(manager.cache("users"));
  }

  @AfterEach
  void stop() {
    if (manager != null) {
      manager.close();
    }
  }

  private List<String> keys(int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add(users.routingKey(i, "test"));
    }
    return keys;
  }

  private Object storedOn(String nodeId, String key) {
    return manager.node(nodeId).get(key, ValueType.OBJECT);
  }

  @Test
  void addNode_movedKeysAreServedFromTheirPreviousOwnerAndCopiedOverWithoutLoads()
      throws Throwable {
    start(config(RingSettings.defaults(), WINDOW, "a", "b", "c"));
    List<String> keys = keys(3000);
    for (String key : keys) {
      users.put(key, "v:" + key);
    }
    Ring before = manager.ring();

    manager.addNode(NodeConfig.local("d"));

    AtomicInteger loads = new AtomicInteger();
    List<String> moved = new ArrayList<>();
    for (String key : keys) {
      String was = before.locate(key).id();
      String is = manager.ring().locate(key).id();
      if (!was.equals(is)) {
        assertThat(is).isEqualTo("d");
        moved.add(key);
      }
      Object got =
          users.get(key, ValueType.OBJECT, () -> "loaded " + loads.incrementAndGet(), false, false);
      assertThat(got).isEqualTo("v:" + key);
    }
    assertThat(loads).hasValue(0);
    assertThat(moved).hasSizeBetween(3000 / 4 - 200, 3000 / 4 + 200);
    for (String key : moved) {
      assertThat(storedOn("d", key)).as("copied to the new owner").isEqualTo("v:" + key);
      assertThat(storedOn(before.locate(key).id(), key)).as("deleted where it was").isNull();
    }
    CacheStats stats = users.stats();
    assertThat(stats.migrationHitCount()).isEqualTo(moved.size());
    assertThat(stats.migrationCopyCount()).isEqualTo(moved.size());
    assertThat(manager.nodeStats().get("d").migrationCopyCount()).isEqualTo(moved.size());
  }

  @Test
  void writesDuringTheWindow_deleteOnThePreviousOwner_soAMoveBackFindsNoOldCopy() {
    start(config(RingSettings.defaults(), WINDOW, "a", "b", "c"));
    List<String> keys = keys(2000);
    keys.forEach(key -> users.put(key, "v1"));
    Ring three = manager.ring();
    manager.addNode(NodeConfig.local("d"));
    keys.forEach(key -> users.put(key, "v2")); // at d for d's keys, deleted on their old owner
    manager.removeNode("d"); // within the window: d's keys go back home
    for (String key : keys) {
      assertThat(manager.ring().locate(key)).isEqualTo(three.locate(key));
      assertThat(users.getIfPresent(key, ValueType.OBJECT)).as(key).isEqualTo("v2");
    }
  }

  @Test
  void removeNode_drainsIt_itsKeysAreServedFromItAndCopiedToTheirNewOwners() throws Throwable {
    start(config(RingSettings.defaults(), WINDOW, "a", "b", "c", "d"));
    List<String> keys = keys(2000);
    keys.forEach(key -> users.put(key, "v:" + key));
    List<String> onD =
        keys.stream().filter(k -> manager.ring().locate(k).id().equals("d")).toList();

    manager.removeNode("d");

    AtomicInteger loads = new AtomicInteger();
    for (String key : onD) {
      assertThat(
              users.get(key, ValueType.OBJECT, () -> "x" + loads.incrementAndGet(), false, false))
          .isEqualTo("v:" + key);
      assertThat(storedOn(manager.ring().locate(key).id(), key)).isEqualTo("v:" + key);
    }
    assertThat(loads).hasValue(0);
    assertThat(manager.ring().nodes()).extracting(Node::id).containsExactly("a", "b", "c");
    // after the window the sweep closes it
    ticker.advance(WINDOW.plusSeconds(1));
    manager.membership().sweepDue();
    assertThat(manager.membership().allSlots()).extracting(NodeSlot::id).doesNotContain("d");
  }

  @Test
  void sweepAfterTheWindow_deletesCopiesOnNodesThatNoLongerOwnTheirKeys() {
    start(config(RingSettings.defaults(), WINDOW, "a", "b", "c"));
    List<String> keys = keys(2000);
    keys.forEach(key -> users.put(key, "v"));
    Ring before = manager.ring();
    manager.addNode(NodeConfig.local("d")); // nothing read: d's keys are left where they were
    List<String> moved =
        keys.stream().filter(k -> manager.ring().locate(k).id().equals("d")).toList();
    assertThat(moved).isNotEmpty();
    manager.membership().sweepDue(); // within the window: nothing to do
    assertThat(storedOn(before.locate(moved.get(0)).id(), moved.get(0))).isEqualTo("v");

    ticker.advance(WINDOW.plusSeconds(1));
    manager.membership().sweepDue();

    for (String key : moved) {
      assertThat(storedOn(before.locate(key).id(), key)).as("leftover of %s", key).isNull();
    }
    assertThat(users.stats().leftoverDeletionCount()).isEqualTo(moved.size());
    // a move back now finds nothing old
    manager.removeNode("d");
    for (String key : moved) {
      assertThat(users.getIfPresent(key, ValueType.OBJECT)).isNull();
    }
  }

  @Test
  void zeroWindow_noMigrationReads() throws Throwable {
    start(config(RingSettings.defaults(), Duration.ZERO, "a", "b", "c"));
    List<String> keys = keys(1000);
    keys.forEach(key -> users.put(key, "v"));
    manager.addNode(NodeConfig.local("d"));
    AtomicInteger loads = new AtomicInteger();
    for (String key : keys) {
      users.get(key, ValueType.OBJECT, () -> "x" + loads.incrementAndGet(), false, false);
    }
    long onD = keys.stream().filter(k -> manager.ring().locate(k).id().equals("d")).count();
    assertThat(loads).hasValue((int) onD);
    assertThat(users.stats().migrationHitCount()).isZero();
  }

  @Test
  void historyIndependence_anySequenceOfChanges_placesKeysAsAFreshStart() {
    for (Algorithm algorithm : List.of(Algorithm.RING, Algorithm.MAGLEV, Algorithm.RENDEZVOUS)) {
      start(config(RingSettings.of(algorithm), WINDOW, "a", "b", "c"));
      manager.addNode(NodeConfig.local("e"));
      manager.reweight("a", 3);
      manager.removeNode("b");
      manager.addNode(NodeConfig.local("b"));
      manager.addNode(NodeConfig.local("d"));
      manager.reweight("a", 1);
      manager.removeNode("e");
      Ring fresh =
          Rings.create(
              RingSettings.of(algorithm),
              List.of(Node.of("a"), Node.of("c"), Node.of("b"), Node.of("d")));
      for (String key : keys(5000)) {
        assertThat(manager.ring().locate(key))
            .as("%s %s", algorithm, key)
            .isEqualTo(fresh.locate(key));
      }
      manager.close();
      manager = null;
    }
  }

  @Test
  void rejectedChange_changesNothingAndSaysWhy() {
    start(config(RingSettings.defaults(), WINDOW, "a", "b"));
    Ring before = manager.ring();
    assertThatThrownBy(() -> manager.addNode(NodeConfig.local("a")))
        .hasMessage("duplicate node id \"a\"");
    assertThatThrownBy(() -> manager.removeNode("zz"))
        .hasMessage("unknown node \"zz\"; configured nodes are [a, b]");
    assertThatThrownBy(() -> manager.reweight("a", 0))
        .hasMessage("weight of node \"a\" must be a positive integer, was 0");
    ChashConfig jump = config(RingSettings.of(Algorithm.JUMP), WINDOW, "a", "b");
    assertThatThrownBy(
            () -> manager.reconfigure(jump.withNodes(List.of(NodeConfig.local("a").withWeight(2)))))
        .hasMessageContaining("must be 1 for algorithm jump");
    assertThat(manager.ring()).isSameAs(before);
    users.put("users:1", "still works");
    assertThat(users.getIfPresent("users:1", ValueType.OBJECT)).isEqualTo("still works");
  }

  @Test
  void reconfigure_keepsStatsAndHealthOfNodesThatStayAndAddsNewCaches() {
    start(config(RingSettings.defaults(), WINDOW, "a", "b"));
    users.put("users:1", "x");
    users.getIfPresent("users:1", ValueType.OBJECT);
    String home = manager.ring().locate("users:1").id();
    long hitsBefore = manager.nodeStats().get(home).hitCount();
    ChashConfig next =
        ChashConfig.builder()
            .migration(new MigrationConfig(WINDOW))
            .node(NodeConfig.local("a"))
            .node(NodeConfig.local("b"))
            .node(NodeConfig.local("c"))
            .cache(new CacheConfig("users", Duration.ofMinutes(30)))
            .cache(new CacheConfig("orders", null))
            .build();
    manager.reconfigure(next);
    assertThat(manager.nodeStats().get(home).hitCount()).isEqualTo(hitsBefore);
    assertThat(manager.cacheNames()).containsExactly("users", "orders");
    InterceptedCache.of(manager.cache("orders")).put("orders:1", 1);
    assertThat(
            InterceptedCache.of(manager.cache("orders")).getIfPresent("orders:1", ValueType.OBJECT))
        .isEqualTo(1);
  }

  /** A file's configuration: the nodes (id, or id:weight) and the users cache's TTL. */
  private static ChashConfig file(Duration usersTtl, String... nodes) {
    ChashConfig.Builder b =
        ChashConfig.builder()
            .migration(new MigrationConfig(WINDOW))
            .cache(new CacheConfig("users", usersTtl));
    for (String node : nodes) {
      String[] idWeight = node.split(":");
      NodeConfig config = NodeConfig.local(idWeight[0]);
      b.node(idWeight.length == 1 ? config : config.withWeight(Integer.parseInt(idWeight[1])));
    }
    return b.build();
  }

  private List<String> ringIds() {
    return manager.ring().nodes().stream().map(Node::id).sorted().toList();
  }

  @Test
  void drain_holdsAcrossReloadsUntilReadmitted_withTheLatestFilesConfig() {
    start(file(Duration.ofMinutes(30), "a", "b", "c"));
    users.put("users:1", "kept");

    manager.drain("b");
    assertThat(ringIds()).containsExactly("a", "c");
    assertThat(manager.drained()).containsExactly("b");

    // issue 43: a reload that changes only a TTL used to add b back while it stayed "drained"
    manager.reconfigure(file(Duration.ofMinutes(45), "a", "b", "c"));
    assertThat(ringIds()).as("a drained node stays out across a reload").containsExactly("a", "c");
    assertThat(manager.drained()).containsExactly("b");
    assertThat(manager.nodeConfigs()).extracting(NodeConfig::id).containsExactly("a", "c");
    // only readmit brings it back; a programmatic add is refused, the ring unchanged
    assertThatThrownBy(() -> manager.addNode(NodeConfig.local("b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node \"b\" is drained; readmit it to bring it back");
    assertThatThrownBy(() -> manager.drain("b")).hasMessage("node \"b\" is already drained");
    // a file whose every node is drained does not run
    Ring before = manager.ring();
    assertThatThrownBy(() -> manager.reconfigure(file(Duration.ofMinutes(45), "b")))
        .hasMessage(
            "every node of the configuration is drained [b]; readmit one before the manager can"
                + " run it");
    assertThat(manager.ring()).isSameAs(before);
    assertThat(manager.drained()).containsExactly("b");

    // the latest file gives b weight 3: the readmission brings that back
    manager.reconfigure(file(Duration.ofMinutes(45), "a", "b:3", "c"));
    assertThat(ringIds()).containsExactly("a", "c");
    manager.readmit("b");
    assertThat(ringIds()).containsExactly("a", "b", "c");
    assertThat(manager.ring().nodes())
        .filteredOn(n -> n.id().equals("b"))
        .singleElement()
        .satisfies(n -> assertThat(n.weight()).isEqualTo(3));
    assertThat(manager.drained()).isEmpty();
    assertThat(users.getIfPresent("users:1", ValueType.OBJECT)).isEqualTo("kept");

    // a reload after the readmission keeps b, as any node
    manager.reconfigure(file(Duration.ofMinutes(30), "a", "b:3", "c"));
    assertThat(ringIds()).containsExactly("a", "b", "c");
  }

  @Test
  void drain_isForgottenWhenAReloadNoLongerNamesTheNode() {
    start(file(Duration.ofMinutes(30), "a", "b", "c"));
    manager.drain("b");

    manager.reconfigure(file(Duration.ofMinutes(30), "a", "c"));

    assertThat(manager.drained()).isEmpty();
    assertThatThrownBy(() -> manager.readmit("b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node \"b\" is not drained; drained nodes are []");
    assertThat(ringIds()).containsExactly("a", "c");
    // a later file that names it again adds it, as any new node
    manager.reconfigure(file(Duration.ofMinutes(30), "a", "b", "c"));
    assertThat(ringIds()).containsExactly("a", "b", "c");
  }

  @Test
  void drain_refusesUnknownAndLastNodes_readmitRefusesNodesNotDrained() {
    start(file(Duration.ofMinutes(30), "a", "b"));
    assertThatThrownBy(() -> manager.drain("zz"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown node \"zz\"; configured nodes are [a, b]");
    assertThatThrownBy(() -> manager.readmit("a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node \"a\" is not drained; drained nodes are []");
    manager.drain("a");
    assertThatThrownBy(() -> manager.drain("b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node \"b\" is the last node; a sharded cache needs at least one");
    assertThat(ringIds()).containsExactly("b");
    assertThat(manager.drained()).containsExactly("a");
  }
}
