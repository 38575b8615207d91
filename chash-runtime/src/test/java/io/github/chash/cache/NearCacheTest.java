package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NearConfig;
import io.github.chash.config.NearInvalidation;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.NodeType;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.internal.cache.ValueLoader;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The near cache over nodes whose invalidation channel the test drives ({@link TrackingNode}): what
 * it serves, what drops its entries (a reported change, a lost channel, a ring change, a write or
 * clear in this JVM), and the races between a read that got an older value from its node and a
 * change reported or written before that read could keep it.
 */
class NearCacheTest {
  private static final ValueType STRING = ValueType.of(String.class);
  private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

  private final FakeTicker ticker = new FakeTicker();
  private final TrackingNode a = new TrackingNode("a", true, ticker);
  private final TrackingNode b = new TrackingNode("b", true, ticker);
  private ShardedCacheManager manager;

  @AfterEach
  void close() {
    if (manager != null) {
      manager.close();
    }
  }

  private InterceptedCache users(NearConfig near, CacheNode... nodes) {
    ShardedCaches.Builder builder = ShardedCaches.builder().ticker(ticker).scheduleProbes(false);
    for (CacheNode node : nodes) {
      builder.node(node, 1);
    }
    manager = builder.cache(new CacheConfig("users", TEN_MINUTES).withNear(near)).build();
    return InterceptedCache.of(manager.cache("users"));
  }

  private InterceptedCache users() {
    return users(new NearConfig(100, Duration.ofSeconds(30)), a, b);
  }

  /** The node that owns {@code key} in the manager's ring. */
  private TrackingNode owner(String key) {
    String id = manager.ring().locate(key).id();
    return id.equals("a") ? a : b;
  }

  private int reads() {
    return a.reads.get() + b.reads.get();
  }

  @Test
  void hit_servedInThisJvm_countedAsNearHit() {
    InterceptedCache users = users();
    String key = users.routingKey(42, "test");
    users.put(key, "v1");

    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v1");
    int afterFirst = reads();
    for (int i = 0; i < 5; i++) {
      assertThat(users.getIfPresent(key, STRING)).isEqualTo("v1");
    }

    assertThat(reads()).as("node reads after the first").isEqualTo(afterFirst);
    CacheStats stats = users.stats();
    assertThat(stats.nearHitCount()).isEqualTo(5);
    assertThat(stats.hitCount()).isEqualTo(6);
    assertThat(a.trackedPrefixes()).containsExactly("users:");
  }

  @Test
  void changeReported_dropsTheEntry() {
    InterceptedCache users = users();
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    users.getIfPresent(key, STRING);

    owner(key).server().put(key, "v2", null); // another JVM's write
    assertThat(users.getIfPresent(key, STRING)).as("before the report").isEqualTo("v1");
    owner(key).channel().changed(key);

    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");
  }

  @Test
  void changeReportedWhileTheReadWasUnderWay_theOlderValueIsNotKept() {
    InterceptedCache users = users();
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    TrackingNode owner = owner(key);
    // the read got v1; then another JVM writes v2 and the server reports it, before the read keeps
    owner.onceAfterRead(
        () -> {
          owner.server().put(key, "v2", null);
          owner.channel().changed(key);
        });

    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v1"); // overlapped the write: fine

    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");
  }

  @Test
  void writeInThisJvmWhileTheReadWasUnderWay_theOlderValueIsNotKept() {
    InterceptedCache users = users();
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    owner(key).onceAfterRead(() -> users.put(key, "v2"));

    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v1");

    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");
  }

  @Test
  void readInsideAWrite_whatItKeptGoesWhenTheWriteLands() {
    InterceptedCache users = users();
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    String[] during = new String[1];
    // a read that begins after the put dropped the entry and before its value landed: it reads
    // (and may keep) v1; the put, once landed, must not leave v1 readable
    owner(key).onceBeforePut(() -> during[0] = (String) users.getIfPresent(key, STRING));

    users.put(key, "v2");

    assertThat(during[0]).isEqualTo("v1");
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");
  }

  @Test
  void evictAndClear_dropEntries() {
    InterceptedCache users = users();
    String k1 = users.routingKey(1, "test");
    String k2 = users.routingKey(2, "test");
    users.put(k1, "v1");
    users.put(k2, "v2");
    users.getIfPresent(k1, STRING);
    users.getIfPresent(k2, STRING);

    users.evict(k1);
    assertThat(users.getIfPresent(k1, STRING)).isNull();
    assertThat(users.getIfPresent(k2, STRING)).isEqualTo("v2");

    users.clear();
    assertThat(users.getIfPresent(k2, STRING)).isNull();
  }

  @Test
  void lostChannel_dropsThatNodesEntries_andKeepsNothingUntilTrackingIsBack() {
    InterceptedCache users = users();
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    users.getIfPresent(key, STRING);
    TrackingNode owner = owner(key);

    owner.channel().lost();
    owner.server().put(key, "v2", null); // unreported: the channel is down
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");
    int before = reads();
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");
    assertThat(reads()).as("nothing kept while the channel is down").isEqualTo(before + 1);

    owner.channel().tracking();
    users.getIfPresent(key, STRING);
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");
    assertThat(reads()).as("kept again once tracking is back").isEqualTo(before + 2);
  }

  @Test
  void lostWhileTheReadWasUnderWay_theValueIsNotServed() {
    InterceptedCache users = users();
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    TrackingNode owner = owner(key);
    owner.onceAfterRead(
        () -> {
          owner.channel().lost();
          owner.channel().tracking();
        });
    users.getIfPresent(key, STRING);

    owner.server().put(key, "v2", null); // reported by a channel that no read depended on
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");
  }

  @Test
  void ringChange_dropsEveryEntry() {
    InterceptedCache users = users();
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    users.getIfPresent(key, STRING);
    TrackingNode owner = owner(key);
    owner.server().put(key, "v2", null); // unreported

    String other = owner == a ? "b" : "a";
    RingCacheManager ring = (RingCacheManager) manager;
    NodeSlot out =
        ring.routing().slots().stream().filter(s -> s.id().equals(other)).findFirst().get();
    ring.failurePolicy().mustEmpty(out, "test"); // another node's ejection: a new routing

    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");
  }

  @Test
  void entryLivesAtMostTheNearTtl_orWhatTheNodesCopyHasLeft() {
    InterceptedCache users = users(new NearConfig(100, Duration.ofSeconds(30)), a, b);
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    users.getIfPresent(key, STRING);
    owner(key).server().put(key, "v2", TEN_MINUTES); // unreported
    ticker.advance(Duration.ofSeconds(29));
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v1");

    ticker.advance(Duration.ofSeconds(1));
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");

    owner(key).server().put(key, "v3", Duration.ofSeconds(5));
    owner(key).channel().changed(key);
    users.getIfPresent(key, STRING);
    ticker.advance(Duration.ofSeconds(5));
    assertThat(users.getIfPresent(key, STRING)).as("expired with the node's copy").isNull();
  }

  @Test
  void refreshAhead_aNearHitInTheWindowReloads_andTheReloadReplacesTheKeptValue() throws Throwable {
    java.util.Queue<Runnable> reloads = new java.util.ArrayDeque<>();
    manager =
        ShardedCaches.builder()
            .ticker(ticker)
            .scheduleProbes(false)
            .refreshExecutor(reloads::add)
            .node(a, 1)
            .node(b, 1)
            .cache(
                new CacheConfig("users", Duration.ofSeconds(10), 0, 0.2, null)
                    .withNear(new NearConfig(100, Duration.ofMinutes(1))))
            .build();
    InterceptedCache users = InterceptedCache.of(manager.cache("users"));
    String key = users.routingKey(42, "test");
    java.util.concurrent.atomic.AtomicInteger version =
        new java.util.concurrent.atomic.AtomicInteger();
    ValueLoader<String> loader = () -> "v" + version.incrementAndGet();
    assertThat(users.get(key, STRING, loader, true, false)).isEqualTo("v1"); // loaded
    users.get(key, STRING, loader, true, false); // read from its node, kept
    assertThat(users.get(key, STRING, loader, true, false)).isEqualTo("v1");
    assertThat(users.stats().nearHitCount()).isEqualTo(1);

    ticker.advance(Duration.ofMillis(8500)); // 1.5 s left on the node: within the last 20%
    assertThat(users.get(key, STRING, loader, true, false)).isEqualTo("v1");
    assertThat(users.stats().nearHitCount()).as("a near hit").isEqualTo(2);
    assertThat(reloads).as("the reload it started").hasSize(1);
    reloads.poll().run();

    assertThat(users.get(key, STRING, loader, true, false)).isEqualTo("v2");
  }

  @Test
  void nodeWithoutChannel_refusedUnlessTheTtlIsTheBound() {
    ChashConfig config =
        ChashConfigs.parse(
            String.join(
                "\n",
                "nodes:",
                "  - {id: a, type: redis, uri: \"redis://127.0.0.1:1\"}",
                "caches:",
                "  users:",
                "    ttl: 10m",
                "    near: {maximumSize: 100, ttl: 5s}",
                ""),
            "chash.yaml");
    CacheNodeFactory noChannel =
        new CacheNodeFactory() {
          @Override
          public NodeType type() {
            return NodeType.REDIS;
          }

          @Override
          public CacheNode create(NodeConfig node, ChashConfig whole) {
            return new TrackingNode(node.id(), false, ticker);
          }
        };

    assertThatThrownBy(() -> ShardedCaches.builder().config(config).nodeFactory(noChannel).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "chash.yaml:6:11: caches.users.near needs every node to report changes of its keys"
                + " (Redis 6 or later), but node \"a\" cannot (memcached, or a Redis shard read"
                + " from its replicas); set near.invalidation: ttl to serve near entries up to"
                + " near.ttl stale from such nodes, or remove near");
  }

  @Test
  void nodeWithoutChannel_underTtlInvalidation_keepsEntriesForTheNearTtl() {
    TrackingNode silent = new TrackingNode("m", false, ticker);
    InterceptedCache users =
        users(new NearConfig(100, Duration.ofSeconds(5), NearInvalidation.TTL), silent);
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    users.getIfPresent(key, STRING);
    silent.server().put(key, "v2", null); // another JVM: nothing reports it

    ticker.advance(Duration.ofMillis(4999));
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v1");
    ticker.advance(Duration.ofMillis(1));
    assertThat(users.getIfPresent(key, STRING)).isEqualTo("v2");

    users.put(key, "v3");
    assertThat(users.getIfPresent(key, STRING)).as("this JVM's write: at once").isEqualTo("v3");
  }

  @Test
  void localNodes_areNeverKept() {
    InterceptedCache users =
        users(
            new NearConfig(100, Duration.ofSeconds(5), NearInvalidation.TTL),
            new LocalCacheNode("l", 100, ticker));
    String key = users.routingKey(42, "test");
    users.put(key, "v1");
    users.getIfPresent(key, STRING);
    users.getIfPresent(key, STRING);

    assertThat(users.stats().nearHitCount()).isZero();
    assertThat(users.stats().hitCount()).isEqualTo(2);
  }

  @Test
  void withoutNear_nothingIsTracked() {
    ShardedCacheManager plain =
        ShardedCaches.builder().node(a, 1).cache("users", TEN_MINUTES).build();
    try {
      assertThat(a.channel()).isNull();
    } finally {
      plain.close();
    }
  }

  @Test
  void bulkReads_useKeptEntries() {
    InterceptedCache users = users();
    String k1 = users.routingKey(1, "test");
    String k2 = users.routingKey(2, "test");
    users.put(k1, "v1");
    users.put(k2, "v2");
    users.getIfPresent(k1, STRING);
    int before = reads();

    TypedCache<Object, String> typed = manager.cache("users").typed(String.class);
    assertThat(typed.getAll(List.of(1, 2))).containsEntry(1, "v1").containsEntry(2, "v2");
    assertThat(users.stats().nearHitCount()).isEqualTo(1);
    assertThat(reads() - before).as("only k2 read from its node").isLessThanOrEqualTo(1);
  }
}
