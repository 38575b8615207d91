package io.github.chash.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ConsistentHashStressTest {
  private static final int PERMANENT = 10;
  private static final int WRITERS = 2;
  private static final int TOGGLED_PER_WRITER = 5;
  private static final int KEYS = 2_000;

  @Test
  void lookups_duringAddsAndRemoves_alwaysAnswerFromAPublishedSnapshot() throws Exception {
    RingSettings settings = RingSettings.builder().pointsPerWeight(100).build();
    List<Node> permanent = new ArrayList<>();
    for (int i = 0; i < PERMANENT; i++) {
      permanent.add(Node.of("n-" + i));
    }
    ConsistentHash hash = ConsistentHash.create(settings, permanent);
    // In every snapshot the permanent nodes are present, so with a consistent ring each key's owner
    // is either its owner among the permanent nodes or one of the toggled nodes; anything else
    // would be a torn or invented answer.
    Ring base = Rings.create(settings, permanent);
    String[] baseOwner = new String[KEYS];
    for (int k = 0; k < KEYS; k++) {
      baseOwner[k] = base.locate("k" + k).id();
    }
    Set<String> toggled = new HashSet<>();
    for (int w = 0; w < WRITERS; w++) {
      for (int j = 0; j < TOGGLED_PER_WRITER; j++) {
        toggled.add("t-" + w + "-" + j);
      }
    }

    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 3);
    AtomicBoolean writing = new AtomicBoolean(true);
    CountDownLatch start = new CountDownLatch(1);
    ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      writers.add(
          pool.submit(
              () -> {
                start.await();
                for (int round = 0; round < 400; round++) {
                  Node node = Node.of("t-" + writer + "-" + round % TOGGLED_PER_WRITER);
                  if (round / TOGGLED_PER_WRITER % 2 == 0) {
                    hash.add(node);
                  } else {
                    hash.remove(node);
                  }
                }
                return null;
              }));
    }
    List<Future<Integer>> readers = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      readers.add(
          pool.submit(
              () -> {
                start.await();
                int lookups = 0;
                while (writing.get() || lookups < KEYS) {
                  int k = lookups % KEYS;
                  String owner = hash.locate("k" + k).id();
                  if (!owner.equals(baseOwner[k]) && !toggled.contains(owner)) {
                    problems.add("k" + k + " -> " + owner);
                  }
                  List<Node> preference = hash.locate("k" + k, 3);
                  if (new HashSet<>(preference).size() != 3) {
                    problems.add("k" + k + " preference not distinct: " + preference);
                  }
                  lookups++;
                }
                return lookups;
              }));
    }
    start.countDown();
    for (Future<?> writer : writers) {
      writer.get(60, TimeUnit.SECONDS); // rethrows any writer exception
    }
    writing.set(false);
    int total = 0;
    for (Future<Integer> reader : readers) {
      total += reader.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

    assertThat(problems).isEmpty();
    assertThat(total).isGreaterThanOrEqualTo(3 * KEYS);
    // 400 toggles per writer end with every toggled node removed again: no update was lost.
    assertThat(hash.nodeMap().keySet())
        .containsExactlyInAnyOrderElementsOf(permanent.stream().map(Node::id).toList());
  }
}
