package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.Marker;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.MemcachedConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a memcached node does beyond the contract, on a real server: expirations in seconds and as
 * absolute Unix times, the time left of an entry, clears seen by another node (another JVM) at
 * once, conditional calls over what a clear left and their time left, and failures of a dead
 * server.
 */
class MemcachedCacheNodeIT {
  private static MemcachedServerProcess server;
  private final List<CacheNode> nodes = new ArrayList<>();

  @BeforeAll
  static void startServer() {
    server = MemcachedServerProcess.start();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) { // null when the server's binary is missing and the tests were skipped
      server.close();
    }
  }

  @BeforeEach
  void flush() {
    if (!server.isRunning()) {
      server.restart();
    }
    server.flushAll();
  }

  @AfterEach
  void closeNodes() {
    nodes.forEach(CacheNode::close);
  }

  private CacheNode node() {
    ChashConfig config =
        MemcachedCacheNodeContractIT.config(
            server.uri(), MemcachedConfig.defaults(), Duration.ofMillis(500));
    CacheNode node =
        new MemcachedCacheNodeFactory(Map.<String, String>of()::get)
            .create(config.nodes().get(0), config);
    node.awaitReady();
    nodes.add(node);
    return node;
  }

  @Test
  void ttl_inSecondsUpTo30Days_asAbsoluteUnixTimeBeyond_noneForNull() {
    CacheNode node = node();
    node.put("users:short", "v", Duration.ofMillis(1500));
    node.put("users:month", "v", Duration.ofDays(30));
    node.put("users:forty-days", "v", Duration.ofDays(40));
    node.put("users:forever", "v", null);

    assertThat(server.ttlSeconds("chash:users:short")).isBetween(1L, 2L); // ceil(1.5 s)
    assertThat(server.ttlSeconds("chash:users:month")).isBetween(30L * 86400 - 5, 30L * 86400);
    // sent as now + 40 days: the server counts it down from there, nothing expired at once
    assertThat(server.ttlSeconds("chash:users:forty-days"))
        .isBetween(40L * 86400 - 5, 40L * 86400 + 1);
    assertThat(node.get("users:forty-days", ValueType.OBJECT)).isEqualTo("v");
    assertThat(server.ttlSeconds("chash:users:forever")).isEqualTo(-1L);
  }

  @Test
  void expiration_isCeiledSecondsRelativeUpTo30DaysAbsoluteBeyondAndZeroPast2038() {
    long now = 1_800_000_000_000L;
    assertThat(MemcachedCacheNode.expiration(Duration.ofMillis(1), now)).isEqualTo(1);
    assertThat(MemcachedCacheNode.expiration(Duration.ofMillis(1001), now)).isEqualTo(2);
    assertThat(MemcachedCacheNode.expiration(Duration.ofDays(30), now)).isEqualTo(2_592_000);
    assertThat(MemcachedCacheNode.expiration(Duration.ofDays(30).plusSeconds(1), now))
        .isEqualTo(1_800_000_000 + 2_592_001);
    assertThat(MemcachedCacheNode.expiration(Duration.ofDays(5000), now)).isZero(); // past 2038
    assertThat(MemcachedCacheNode.expiration(null, now)).isZero();
    assertThat(MemcachedCacheNode.deadline(null, now)).isZero();
    assertThat(MemcachedCacheNode.deadline(Duration.ofSeconds(3), now)).isEqualTo(now + 3000);
  }

  @Test
  void getEntry_returnsTheTimeLeftNeverMore() {
    CacheNode node = node();
    long ttlMillis = 60_000;
    long putStarted = System.currentTimeMillis();
    node.put("users:1", "v", Duration.ofMillis(ttlMillis));
    long putEnded = System.currentTimeMillis();
    node.put("users:2", "v", null);
    awaitWallClockPast(putEnded); // so that "less than the TTL" tells the time left from the TTL

    long readStarted = System.currentTimeMillis();
    CacheNode.StoredEntry entry = node.getEntry("users:1", ValueType.OBJECT);
    long readEnded = System.currentTimeMillis();
    assertThat(entry.value()).isEqualTo("v");
    // the deadline is the put's instant plus the TTL; the time left is counted at the read
    assertThat(entry.ttl().toMillis())
        .isBetween(putStarted + ttlMillis - readEnded, putEnded + ttlMillis - readStarted)
        .isLessThan(ttlMillis);
    assertThat(node.getEntry("users:2", ValueType.OBJECT).ttl()).isNull();
    assertThat(node.getEntry("users:absent", ValueType.OBJECT)).isNull();
  }

  @Test
  void millisecondTtl_expiresByTheEnvelopesDeadline() {
    CacheNode node = node();
    // Sent as expiration 2 (whole seconds, rounded up): memcached's clock ticks once a second, so
    // the item lives 1 to 2 s on the server, past the TTL; the node must stop serving it at the
    // TTL. A server may still drop an item early, as a cache may: a miss before the TTL is the
    // node's fault only while the item is on the server. (A 300 ms TTL, sent as expiration 1,
    // would often be gone from the server before its TTL, proving nothing about the deadline.)
    long ttlMillis = 1_001;
    String key;
    long putStarted;
    long putEnded;
    Object early;
    long earlyReadEnded;
    int attempt = 0;
    do { // a stalled host, or memcached's tick, before the read tries again with a new key
      key = "users:brief" + attempt++;
      putStarted = System.currentTimeMillis();
      node.put(key, "v", Duration.ofMillis(ttlMillis));
      putEnded = System.currentTimeMillis();
      early = node.get(key, ValueType.OBJECT);
      earlyReadEnded = System.currentTimeMillis();
      if (early == null && earlyReadEnded - putStarted < ttlMillis) {
        assertThat(server.exists("chash:" + key)).as("a miss within the TTL, item kept").isFalse();
      }
    } while ((early == null || earlyReadEnded - putStarted >= ttlMillis) && attempt < 20);
    assertThat(earlyReadEnded - putStarted).as("a read within the TTL").isLessThan(ttlMillis);
    assertThat(early).isEqualTo("v");

    // the node serves it until the envelope's deadline, the put's instant plus the TTL, and not a
    // read after that
    while (true) {
      long readStarted = System.currentTimeMillis();
      Object read = node.get(key, ValueType.OBJECT);
      long readEnded = System.currentTimeMillis();
      if (read == null) {
        if (readEnded - putStarted < ttlMillis) {
          assertThat(server.exists("chash:" + key))
              .as("a miss before the TTL while the item is on the server")
              .isFalse();
        }
        break;
      }
      assertThat(readStarted - putEnded).as("served past the TTL").isLessThan(ttlMillis);
      pollPause();
    }
  }

  @Test
  void serverExpiration_dropsTheItemAfterItsWholeSeconds() {
    CacheNode node = node();
    // sent as expiration 2: memcached's clock ticks in whole seconds, so the item lives 1 to 2 s
    Duration ttl = Duration.ofSeconds(2);
    long lives = 900; // a second, less what its clock thread may run late
    long gone = 2_000 + 1_500; // and the server's clock thread some slack
    String item;
    long putStarted;
    long putEnded;
    boolean early;
    long earlyReadEnded;
    int attempt = 0;
    do { // a host stalled past what the item surely lives tries again, with a new key
      String key = "users:whole" + attempt++;
      item = "chash:" + key;
      putStarted = System.currentTimeMillis();
      node.put(key, "v", ttl);
      putEnded = System.currentTimeMillis();
      early = server.exists(item);
      earlyReadEnded = System.currentTimeMillis();
    } while (earlyReadEnded - putStarted >= lives && attempt < 5);
    assertThat(earlyReadEnded - putStarted)
        .as("a read while the item surely lives")
        .isLessThan(lives);
    assertThat(early).as("on the server after the put").isTrue();

    while (true) {
      long readStarted = System.currentTimeMillis();
      boolean exists = server.exists(item);
      long readEnded = System.currentTimeMillis();
      if (!exists) {
        assertThat(readEnded - putStarted)
            .as("dropped, not before a second")
            .isGreaterThanOrEqualTo(lives);
        break;
      }
      assertThat(readStarted - putEnded).as("still on the server").isLessThan(gone);
      pollPause();
    }
  }

  /** Waits, spinning, until the wall clock shows a later millisecond than {@code millis}. */
  private static void awaitWallClockPast(long millis) {
    while (System.currentTimeMillis() <= millis) {
      Thread.onSpinWait();
    }
  }

  /** The pace of a polling loop: a read every few milliseconds, not a wait for anything. */
  private static void pollPause() {
    LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
  }

  @Test
  void clears_areSeenAtOnceByAnotherNodeOnTheServer() {
    CacheNode one = node();
    CacheNode other = node(); // as another JVM of the service
    one.put("users:1", "u", null);
    one.put("orders:1", "o", null);
    assertThat(other.get("users:1", ValueType.OBJECT)).isEqualTo("u");

    other.clear("users:");
    assertThat(one.get("users:1", ValueType.OBJECT)).isNull();
    assertThat(one.get("orders:1", ValueType.OBJECT)).isEqualTo("o");
    one.put("orders:2", "written before the clear", null);
    other.clear();
    assertThat(one.get("orders:1", ValueType.OBJECT)).isNull();
    assertThat(one.get("orders:2", ValueType.OBJECT)).isNull();
    // one's reads fetched the new counters: its writes are read again
    one.put("orders:3", "new", null);
    assertThat(other.get("orders:3", ValueType.OBJECT)).isEqualTo("new");
  }

  @Test
  void markers_areClearedWithTheirGeneration_andWhatIsLeftIsReplacedByCas() throws Exception {
    CacheNode one = node();
    CacheNode other = node(); // as another JVM of the service
    Duration ttl = Duration.ofMinutes(1);
    Marker lease = Marker.lease();
    assertThat(one.lease("users:1", lease, ttl)).isTrue();
    assertThat(other.getHeld("users:1", ValueType.OBJECT).get().marker()).isEqualTo(lease);

    // a clear makes the lease nothing, though its item stays on the server: add fails there, so
    // the next lease must find that the item holds nothing and replace it by its CAS unique
    other.clear("users:");
    assertThat(server.exists("chash:users:1")).isTrue();
    assertThat(one.getHeld("users:1", ValueType.OBJECT).get().holds()).isFalse();
    Marker next = Marker.lease();
    assertThat(other.lease("users:1", next, ttl)).isTrue();
    assertThat(one.putIfLeased("users:1", lease, "stale fill", ttl)).isFalse();
    assertThat(other.putIfLeased("users:1", next, "fill", ttl)).isTrue();
    assertThat(one.get("users:1", ValueType.OBJECT)).isEqualTo("fill");

    // the same for "only if nothing is held" over a cleared value (once one has read the new
    // counters: a write under counters replaced less than a second ago is lost, as a put's is)
    other.clear();
    assertThat(one.get("users:1", ValueType.OBJECT)).isNull();
    assertThat(server.exists("chash:users:1")).isTrue();
    assertThat(one.putIf("users:1", CacheNode.Held.NOTHING, "fresh", ttl)).isTrue();
    assertThat(other.get("users:1", ValueType.OBJECT)).isEqualTo("fresh");
  }

  @Test
  void held_hasTheEnvelopesTimeLeft_soACopyNeverLivesLonger() throws Exception {
    CacheNode node = node();
    node.put("users:1", "v", Duration.ofSeconds(30));
    node.put("users:2", Marker.tombstone(), Duration.ofSeconds(5));
    node.put("users:3", "forever", null);
    CacheNode.Held value = node.getHeld("users:1", ValueType.OBJECT).get();
    assertThat(value.ttl()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
    assertThat(value.version()).isInstanceOf(MemcachedCacheNode.CasUnique.class);
    assertThat(node.getHeld("users:2", ValueType.OBJECT).get().ttl())
        .isPositive()
        .isLessThanOrEqualTo(Duration.ofSeconds(5));
    assertThat(node.getHeld("users:3", ValueType.OBJECT).get().ttl()).isNull();
  }

  @Test
  void conditionalDelete_leavesNoItemOnTheServer() throws Exception {
    CacheNode node = node();
    node.put("users:1", "v", null);
    assertThat(node.deleteIf("users:1", node.getHeld("users:1", ValueType.OBJECT).get())).isTrue();
    assertThat(server.exists("chash:users:1")).isFalse();
    Marker lease = Marker.lease();
    assertThat(node.lease("users:1", lease, Duration.ofSeconds(10))).isTrue();
    assertThat(node.deleteIfLeased("users:1", lease)).isTrue();
    assertThat(server.exists("chash:users:1")).isFalse();
  }

  @Test
  void verbatimKeys_takeNoMarkersNorConditionalCalls() {
    CacheNode node = node();
    String key = "\0users\0user:1"; // a verbatim cache's routing key (VerbatimKeys)
    Marker lease = Marker.lease();
    Duration ttl = Duration.ofSeconds(10);
    assertThatThrownBy(() -> node.put(key, Marker.tombstone(), ttl))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> node.lease(key, lease, ttl))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> node.getHeld(key, ValueType.OBJECT))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> node.putIfLeased(key, lease, "v", ttl))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> node.deleteIfLeased(key, lease))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(server.exists("user:1")).isFalse();
  }

  @Test
  void restartedServer_losesItsCountersAndServesNothingOld() {
    CacheNode node = node();
    node.put("users:1", "v1", null);
    server.kill();
    server.restart();
    Awaitility.await("the restarted server answers")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(1))
        .atMost(Duration.ofSeconds(5))
        .ignoreExceptionsInstanceOf(CacheNodeException.class) // not yet
        .until(
            () -> {
              node.ping();
              return true;
            });
    // an old entry planted back without its counters is a miss
    assertThat(node.get("users:1", ValueType.OBJECT)).isNull();
    node.put("users:1", "v2", null);
    assertThat(node.get("users:1", ValueType.OBJECT)).isEqualTo("v2");
  }

  @Test
  void deadServer_failsEveryCallAtOnceWithCacheNodeException() {
    CacheNode node = node();
    server.kill();
    long started = System.nanoTime();
    assertThatThrownBy(() -> node.get("users:1", ValueType.OBJECT))
        .isInstanceOf(CacheNodeException.class)
        .hasMessageContaining(server.uri());
    assertThatThrownBy(() -> node.put("users:1", "v", null)).isInstanceOf(CacheNodeException.class);
    assertThatThrownBy(node::ping).isInstanceOf(CacheNodeException.class);
    assertThatThrownBy(() -> node.getAll(List.of("users:1"), ValueType.OBJECT).join())
        .hasCauseInstanceOf(CacheNodeException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void serverWithoutCas_isToldFromItsSettings_andItsKeysKeepTheRulesOfOneJvm() {
    CacheNode withCas = node();
    withCas.put("users:1", "v", null);
    assertThat(withCas.conditional()).isTrue();
    try (MemcachedServerProcess noCas = MemcachedServerProcess.startWithoutCas()) {
      ChashConfig config =
          MemcachedCacheNodeContractIT.config(
              noCas.uri(), MemcachedConfig.defaults(), Duration.ofSeconds(1));
      CacheNode node = new MemcachedCacheNodeFactory().create(config.nodes().get(0), config);
      nodes.add(node);
      node.awaitReady();
      // every cas of such a server answers EXISTS: a fill over a lease would never land
      node.put("users:1", "v", null);
      assertThat(node.conditional()).isFalse();
      assertThat(node.get("users:1", ValueType.OBJECT)).isEqualTo("v");
    }
  }

  @Test
  void itemLimit_isTheServersOwn_readFromItsSettings() {
    try (MemcachedServerProcess large = MemcachedServerProcess.start("4m")) {
      ChashConfig config =
          MemcachedCacheNodeContractIT.config(
              large.uri(),
              new MemcachedConfig("chash:", "jdk", List.of(), 8 << 20),
              Duration.ofSeconds(1));
      CacheNode node = new MemcachedCacheNodeFactory().create(config.nodes().get(0), config);
      nodes.add(node);
      node.awaitReady();
      String big =
          "b".repeat(3 << 19); // 1.5 MB: beyond XMemcached's own 1 MB default and memcached's
      node.put("users:big", big, null);
      assertThat(node.get("users:big", ValueType.OBJECT)).isEqualTo(big);
      // beyond this server's 4 MB: refused before it is sent, and the connection stays usable
      assertThatThrownBy(() -> node.put("users:huge", "h".repeat(5 << 20), null))
          .isInstanceOf(io.github.chash.cache.ValueRefusedException.class)
          .hasMessageContaining("item size limit");
      assertThat(node.get("users:big", ValueType.OBJECT)).isEqualTo(big);
    }
  }

  @Test
  void factory_unsetPlaceholder_namesFileLineAndColumn() {
    ChashConfig config =
        ChashConfigs.parse(
            "nodes:\n  - id: m1\n    type: memcached\n    uri: memcached://${env:MC_HOST}:11211\n",
            "chash.yaml");
    assertThatThrownBy(
            () ->
                new MemcachedCacheNodeFactory(Map.<String, String>of()::get)
                    .create(config.nodes().get(0), config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("chash.yaml:4:10: node \"m1\": ")
        .hasMessageContaining("MC_HOST is not set");
  }
}
