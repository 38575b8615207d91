package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.internal.cache.NullValue;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link CacheNode} contract as tests: one short subclass per node type (hash4j's contract-test
 * model). Public in the test jar, so node types in other modules pass it too.
 */
public abstract class CacheNodeContractTest {
  private CacheNode node;

  /** A new, empty node with id {@code "n1"}. */
  protected abstract CacheNode createNode();

  /**
   * Asserts that the entry under {@code key} was written without expiry (a null TTL): for a node
   * with a clock, move it far ahead and read; for a server, ask it for the key's TTL.
   */
  protected abstract void assertNeverExpires(CacheNode node, String key);

  /** Writes an entry of another application next to this library's, or false if there is none. */
  protected abstract boolean writeForeignEntry();

  /** Whether the entry of {@link #writeForeignEntry} is still there. */
  protected abstract boolean foreignEntryExists();

  /** A value the node refuses to store (too large), or null when it refuses nothing. */
  protected abstract Object valueItRefuses();

  /**
   * Whether {@link CacheNode#estimatedSize} counts the node's entries; false when the node says -1
   * (it cannot tell cheaply).
   */
  protected abstract boolean countsEntries();

  @BeforeEach
  void open() {
    node = createNode();
    node.awaitReady();
  }

  @AfterEach
  void close() {
    node.close();
  }

  @Test
  void id_isTheConfiguredOne() {
    assertThat(node.id()).isEqualTo("n1");
  }

  @Test
  void get_absentKey_isNull() {
    assertThat(node.get("users:absent", ValueType.OBJECT)).isNull();
  }

  @Test
  void put_thenGet_roundTripsValuesAndTheCachedNull() {
    node.put("users:1", "ada", Duration.ofMinutes(5));
    node.put("users:2", NullValue.INSTANCE, Duration.ofMinutes(5));
    node.put("users:3", List.of(1L, 2L), Duration.ofMinutes(5));

    assertThat(node.get("users:1", ValueType.of(String.class))).isEqualTo("ada");
    assertThat(node.get("users:2", ValueType.of(String.class))).isSameAs(NullValue.INSTANCE);
    assertThat(node.get("users:3", ValueType.OBJECT)).isEqualTo(List.of(1L, 2L));
  }

  @Test
  void put_replacesAndEvictRemoves() {
    node.put("users:1", "v1", Duration.ofMinutes(5));
    node.put("users:1", "v2", Duration.ofMinutes(5));
    assertThat(node.get("users:1", ValueType.OBJECT)).isEqualTo("v2");
    node.evict("users:1");
    node.evict("users:never-written");
    assertThat(node.get("users:1", ValueType.OBJECT)).isNull();
  }

  @Test
  void put_nullTtl_meansNoExpiry() {
    node.put("users:forever", "v", null);
    assertNeverExpires(node, "users:forever");
  }

  @Test
  void put_shortTtl_expires() {
    node.put("users:brief", "v", Duration.ofMillis(50));
    Awaitility.await("users:brief expired")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              if (node.get("users:brief", ValueType.OBJECT) == null) {
                return true;
              }
              expireClock(Duration.ofMillis(60)); // before the next look, as the TTL runs
              return false;
            });
    assertThat(node.get("users:brief", ValueType.OBJECT)).isNull();
  }

  /** Moves a node's clock, for nodes that have one; real servers keep their own time. */
  protected void expireClock(Duration by) {}

  @Test
  void keys_distinctStringsStayDistinct() {
    List<String> keys = List.of("users:\uD800", "users:\uDC00", "users:?", "users:\uD83D\uDE00");
    for (String key : keys) {
      node.put(key, "value of " + key.codePointAt(6), Duration.ofMinutes(5));
    }
    for (String key : keys) {
      assertThat(node.get(key, ValueType.OBJECT)).isEqualTo("value of " + key.codePointAt(6));
    }
  }

  @Test
  void clear_removesThisLibrarysEntriesOnly() {
    node.put("users:1", "v", Duration.ofMinutes(5));
    boolean foreign = writeForeignEntry();
    node.clear();
    assertThat(node.get("users:1", ValueType.OBJECT)).isNull();
    if (foreign) {
      assertThat(foreignEntryExists()).isTrue();
    }
  }

  @Test
  void clearPrefix_removesOneCachesEntriesOnly() {
    node.put("users:1", "u", Duration.ofMinutes(5));
    node.put("users2:1", "other cache", Duration.ofMinutes(5));
    node.put("orders:1", "o", Duration.ofMinutes(5));
    node.clear("users:");
    assertThat(node.get("users:1", ValueType.OBJECT)).isNull();
    assertThat(node.get("users2:1", ValueType.OBJECT)).isEqualTo("other cache");
    assertThat(node.get("orders:1", ValueType.OBJECT)).isEqualTo("o");
  }

  @Test
  void getAllAndPutAll_agreeWithGetAndPut() {
    Map<String, Object> values = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      values.put("users:" + i, "v" + i);
    }
    assertThat(node.putAll(values, Duration.ofMinutes(5)).join()).isEmpty();
    for (var e : values.entrySet()) {
      assertThat(node.get(e.getKey(), ValueType.OBJECT)).isEqualTo(e.getValue());
    }
    List<String> keys = new java.util.ArrayList<>(values.keySet());
    keys.add("users:absent");
    assertThat(node.getAll(keys, ValueType.OBJECT).join()).isEqualTo(values);
  }

  @Test
  void refusedValue_throwsAndLeavesThePreviousValue() {
    Object refused = valueItRefuses();
    Assumptions.assumeTrue(refused != null, "this node type refuses no value");
    node.put("users:1", "small", Duration.ofMinutes(5));
    assertThatThrownBy(() -> node.put("users:1", refused, Duration.ofMinutes(5)))
        .isInstanceOf(ValueRefusedException.class);
    assertThat(node.get("users:1", ValueType.OBJECT)).isEqualTo("small");
    assertThat(node.putAll(Map.of("users:2", refused), Duration.ofMinutes(5)).join())
        .containsOnlyKeys("users:2");
  }

  @Test
  void ping_succeedsOnAHealthyNode() {
    node.ping();
  }

  @Test
  void estimatedSize_countsWhatWasWritten_orSaysItCannotTell() {
    for (int i = 1; i <= 3; i++) {
      node.put("users:size" + i, "v" + i, Duration.ofMinutes(5));
    }
    assertThat(node.estimatedSize()).isEqualTo(countsEntries() ? 3 : -1);
  }

  @Test
  void conditionalCalls_changeOnlyWhatWasSeen() throws Exception {
    Assumptions.assumeTrue(node.conditional(), "no conditional calls");
    String key = "users:cond";
    Duration ttl = Duration.ofMinutes(1);
    assertThat(node.getHeld(key, ValueType.OBJECT).get().holds()).isFalse();

    // a lease on nothing; a second lease is refused; a fill over the first lease lands once
    Marker lease = Marker.lease();
    assertThat(node.lease(key, lease, ttl)).isTrue();
    assertThat(node.get(key, ValueType.OBJECT)).as("a lease reads as a miss").isNull();
    assertThat(node.lease(key, Marker.lease(), ttl)).isFalse();
    assertThat(node.putIfLeased(key, Marker.lease(), "other", ttl)).isFalse();
    assertThat(node.putIfLeased(key, lease, "v1", ttl)).isTrue();
    assertThat(node.putIfLeased(key, lease, "v2", ttl)).isFalse();
    assertThat(node.get(key, ValueType.OBJECT)).isEqualTo("v1");
    assertThat(node.lease(key, Marker.lease(), ttl)).as("no lease over a value").isFalse();

    // a lease given back goes only if it is still the one held: then the next miss leases again
    node.evict(key);
    Marker failed = Marker.lease();
    assertThat(node.lease(key, failed, ttl)).isTrue();
    assertThat(node.deleteIfLeased(key, Marker.lease())).as("another lease").isFalse();
    assertThat(node.lease(key, Marker.lease(), ttl)).as("still held").isFalse();
    assertThat(node.deleteIfLeased(key, failed)).isTrue();
    assertThat(node.getHeld(key, ValueType.OBJECT).get().holds()).isFalse();
    Marker after = Marker.lease();
    assertThat(node.lease(key, after, ttl)).as("leased again once given back").isTrue();
    node.put(key, "written over the lease", ttl);
    assertThat(node.deleteIfLeased(key, after)).as("a write replaced the lease").isFalse();
    assertThat(node.get(key, ValueType.OBJECT)).isEqualTo("written over the lease");

    // a write between a lease and its fill makes the fill fail
    node.evict(key);
    Marker second = Marker.lease();
    assertThat(node.lease(key, second, ttl)).isTrue();
    node.put(key, "written", ttl);
    assertThat(node.putIfLeased(key, second, "stale", ttl)).isFalse();
    assertThat(node.get(key, ValueType.OBJECT)).isEqualTo("written");

    // putIf and deleteIf apply only over exactly what was read
    CacheNode.Held seen = node.getHeld(key, ValueType.OBJECT).get();
    assertThat(seen.value()).isEqualTo("written");
    node.put(key, "newer", ttl);
    assertThat(node.putIf(key, seen, "moved", ttl)).isFalse();
    assertThat(node.deleteIf(key, seen)).isFalse();
    assertThat(node.get(key, ValueType.OBJECT)).isEqualTo("newer");
    CacheNode.Held now = node.getHeld(key, ValueType.OBJECT).get();
    assertThat(node.putIf(key, now, "moved", ttl)).isTrue();
    CacheNode.Held moved = node.getHeld(key, ValueType.OBJECT).get();
    assertThat(node.deleteIf(key, moved)).isTrue();
    assertThat(node.get(key, ValueType.OBJECT)).isNull();
    assertThat(node.putIf(key, CacheNode.Held.NOTHING, "fresh", ttl)).isTrue();
    assertThat(node.putIf(key, CacheNode.Held.NOTHING, "again", ttl)).isFalse();

    // a tombstone reads as a miss, is seen as one, and a lease may replace it
    Marker tombstone = Marker.tombstone();
    node.put(key, tombstone, ttl);
    assertThat(node.get(key, ValueType.OBJECT)).isNull();
    assertThat(node.getEntry(key, ValueType.OBJECT)).isNull();
    assertThat(node.getAll(List.of(key), ValueType.OBJECT).get()).isEmpty();
    CacheNode.Held dead = node.getHeld(key, ValueType.OBJECT).get();
    assertThat(dead.marker()).isEqualTo(tombstone);
    assertThat(dead.ttl()).isNotNull();
    Marker overTombstone = Marker.lease();
    assertThat(node.lease(key, overTombstone, ttl)).isTrue();

    // a vouch reads as a miss, is seen as one, and a lease may replace it, but not another lease
    assertThat(node.lease(key, Marker.lease(), ttl)).isFalse();
    assertThat(node.putIfLeased(key, overTombstone, Marker.vouch("n1"), ttl)).isTrue();
    assertThat(node.get(key, ValueType.OBJECT)).isNull();
    assertThat(node.getAll(List.of(key), ValueType.OBJECT).get()).isEmpty();
    CacheNode.Held vouch = node.getHeld(key, ValueType.OBJECT).get();
    assertThat(vouch.marker().isVouch()).isTrue();
    assertThat(node.putIf(key, vouch, Marker.vouch("n1"), ttl)).isTrue();
    assertThat(node.putIf(key, vouch, "stale", ttl)).isFalse(); // another vouch is held now
    assertThat(node.lease(key, Marker.lease(), ttl)).isTrue();
  }
}
