package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What callers see when they pass what the API does not take. */
class RingMisuseTest {
  private final Ring ring =
      Rings.create(RingSettings.defaults(), List.of(Node.of("a"), Node.of("b")));

  @Test
  void with_nullNode_isRejectedByName() {
    assertThatThrownBy(() -> ring.with(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node must not be null");
  }

  @Test
  void without_nullId_isRejectedByName() {
    assertThatThrownBy(() -> ring.without(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node id must not be null");
  }

  @Test
  void locate_onEmptyRing_nullKeyIsAnArgumentError() {
    Ring empty = Rings.create(RingSettings.defaults(), List.of());
    assertThatThrownBy(() -> empty.locate(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key must not be null");
    assertThatThrownBy(() -> empty.locate(null, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key must not be null");
  }

  @Test
  void locate_onEmptyRing_megabyteKeyIsCutShortInTheMessage() {
    Ring empty = Rings.create(RingSettings.defaults(), List.of());
    String key = "k".repeat(1 << 20);
    assertThatThrownBy(() -> empty.locate(key))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "ring has no nodes; cannot locate key \"" + "k".repeat(100) + "...\" (1048576 chars)");
    assertThatThrownBy(() -> empty.locate("users:1"))
        .hasMessage("ring has no nodes; cannot locate key \"users:1\"");
    assertThatThrownBy(() -> empty.locateIndex("users:1"))
        .hasMessage("ring has no nodes; cannot locate key \"users:1\"");
  }

  @Test
  void consistentHash_nullArguments_areRejectedByName() {
    ConsistentHash hash = ConsistentHash.create(RingSettings.defaults(), List.of(Node.of("a")));
    assertThatThrownBy(() -> hash.add(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node must not be null");
    assertThatThrownBy(() -> hash.remove((Node) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node must not be null");
    assertThatThrownBy(() -> hash.remove((String) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node id must not be null");
    assertThatThrownBy(() -> hash.replaceNodes(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nodes must not be null");
    assertThat(hash.nodeMap()).containsOnlyKeys("a");
  }

  @Test
  void consistentHash_concurrentAddsOfOneId_oneWinsTheOthersFailCleanly() throws Exception {
    for (int round = 0; round < 20; round++) {
      ConsistentHash hash = ConsistentHash.create(RingSettings.defaults(), List.of(Node.of("a")));
      int threads = 4;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> adds = new ArrayList<>();
      List<String> failures = Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < threads; t++) {
        // distinct new ids alongside the contested one: none of them may be lost
        String own = "own-" + t;
        adds.add(
            pool.submit(
                () -> {
                  start.await();
                  hash.add(Node.of(own));
                  try {
                    hash.add(Node.of("same"));
                  } catch (IllegalArgumentException e) {
                    failures.add(e.getMessage());
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : adds) {
        f.get(30, TimeUnit.SECONDS);
      }
      pool.shutdown();
      assertThat(failures).hasSize(threads - 1).containsOnly("duplicate node id \"same\"");
      assertThat(hash.nodeMap()).containsOnlyKeys("a", "same", "own-0", "own-1", "own-2", "own-3");
    }
  }
}
