package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The simulated server is as weak as real ones when told to, never stronger. */
class SimServerTest {
  private final SimScheduler sched = new SimScheduler(1);
  private final SimServer server =
      new SimServer("n0", sched, new SimTrace(sched, false), true, true);

  /** A, then B, then A again: what a conditional call read as A still matches, by bytes (ABA). */
  private boolean putIfAfterEqualBytesWritten(SimServer.Compare compare) {
    server.compare = compare;
    server.put("k", "A", null);
    CacheNode.Held seen = server.held("k");
    server.put("k", "B", null);
    server.put("k", "A", null);
    return server.putIf("k", seen, "C", null);
  }

  @Test
  void aRedisLikeServerComparesBytes_withTheNodesWriteVersion_soAnotherWriteFails() {
    assertThat(putIfAfterEqualBytesWritten(SimServer.Compare.BYTES)).isFalse();
  }

  @Test
  void aRedisLikeServerWithoutTheWriteVersion_letsEqualBytesOfAnotherWritePass() {
    Planted.bugs = java.util.Set.of(SimServer.NO_WRITE_VERSION);
    try {
      assertThat(putIfAfterEqualBytesWritten(SimServer.Compare.BYTES)).isTrue();
    } finally {
      Planted.bugs = java.util.Set.of();
    }
  }

  @Test
  void aMemcachedLikeServerComparesCasUniques_soAnotherWriteFails() {
    assertThat(putIfAfterEqualBytesWritten(SimServer.Compare.CAS)).isFalse();
  }

  @Test
  void overItsBound_theLeastRecentlyUsedEntryGoes_whateverItIs() {
    server.capacity = 2;
    server.put("a", new Marker(Marker.Kind.TOMBSTONE, 1), Duration.ofSeconds(5));
    server.put("b", "B", null);
    server.get("a"); // a use: b is now the least recently used
    server.put("c", "C", null);
    assertThat(server.held("a").marker()).isNotNull();
    assertThat(server.get("b")).isNull();
    assertThat(server.get("c")).isEqualTo("C");
    assertThat(server.evictions).isEqualTo(1);
  }

  @Test
  void aQuietRestartFromAnOldSnapshot_bringsOldValuesBack_failsNoCall_andIsANewIncarnation() {
    server.put("k", "old", null);
    server.snapshot();
    server.put("k", "new", null);
    String before = server.runId();
    int restarts = server.restarts;
    server.restart(0);
    assertThat(server.size()).as("the old value is back on the server").isEqualTo(1);
    // chash's Redis node reads an entry of another incarnation as nothing (ServerIncarnation)
    assertThat(server.get("k")).isNull();
    server.put("k", "newer", null);
    assertThat(server.get("k")).isEqualTo("newer");
    assertThat(server.restarts).as("calls under way are not broken").isEqualTo(restarts);
    assertThat(server.runId()).isNotEqualTo(before);
    server.restartEmpty();
    assertThat(server.get("k")).isNull();
  }
}
