package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.NodeConfig;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigWatchTest {
  private static final String TWO = "nodes:\n  - { id: a }\n  - { id: b }\ncaches:\n  users: {}\n";
  private static final String THREE =
      "nodes:\n  - { id: a }\n  - { id: b }\n  - { id: c }\ncaches:\n  users: {}\n";
  // caches first, so that every prefix of whole lines past the first node is a valid file
  private static final String FOUR =
      "caches:\n  users: {}\nnodes:\n  - { id: a }\n  - { id: b }\n  - { id: c }\n  - { id: d }\n";

  @TempDir Path dir;
  private Path file;
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final Logger watchLogger = Logger.getLogger(ConfigWatch.class.getName());
  private final Handler handler =
      new Handler() {
        @Override
        public void publish(LogRecord r) {
          if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
            String message = new java.util.logging.SimpleFormatter().formatMessage(r);
            warnings.add(r.getThrown() == null ? message : message + " " + r.getThrown());
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void captureWarnings() {
    file = dir.resolve("chash.yaml");
    watchLogger.addHandler(handler);
  }

  @AfterEach
  void releaseWarnings() {
    watchLogger.removeHandler(handler);
  }

  @Test
  void poll_appliesAChangedFileAndIgnoresAnInvalidOneWithItsPosition() throws Exception {
    Files.writeString(file, TWO);
    try (ShardedCacheManager manager =
            ShardedCaches.builder().config(ChashConfigs.load(file)).scheduleProbes(false).build();
        ConfigWatch watch = ConfigWatch.start(manager, file, Duration.ofHours(1))) {
      watch.poll(); // unchanged: nothing happens
      assertThat(manager.ring().nodes()).extracting(Node::id).containsExactly("a", "b");

      Files.writeString(file, THREE);
      watch.poll(); // read once: it may still be being written
      assertThat(manager.ring().nodes()).extracting(Node::id).containsExactly("a", "b");
      watch.poll(); // the same bytes again: applied
      assertThat(manager.ring().nodes()).extracting(Node::id).containsExactly("a", "b", "c");

      Files.writeString(file, "nodes:\n  - { id: a, weight: -1 }\n");
      watch.poll();
      watch.poll();
      assertThat(manager.ring().nodes()).extracting(Node::id).containsExactly("a", "b", "c");
      assertThat(warnings)
          .anySatisfy(
              w ->
                  assertThat(w)
                      .contains("is not valid; the running configuration stays")
                      .contains(
                          "chash.yaml:2:22: nodes[0].weight must be a positive integer, was -1"));
    }
  }

  @Test
  void poll_doesNotApplyAHalfWrittenFileButTheWholeOneOnceItStopsChanging() throws Exception {
    Files.writeString(file, THREE);
    FakeManager manager = new FakeManager();
    try (ConfigWatch watch = ConfigWatch.start(manager, file, Duration.ofHours(1))) {
      // written line by line: a poll sees the file up to node b, a valid file of two nodes
      Files.writeString(file, FOUR.substring(0, FOUR.indexOf("  - { id: c }")));
      watch.poll();
      Files.writeString(file, FOUR);
      watch.poll(); // changed since the last poll: still being written
      assertThat(manager.applied).isEmpty();

      watch.poll(); // the same bytes twice in a row
      assertThat(manager.applied).containsExactly(List.of("a", "b", "c", "d"));
      watch.poll();
      assertThat(manager.applied).hasSize(1);
    }
  }

  @Test
  void poll_appliesAChangeThatAnIdenticalRewriteFollows() throws Exception {
    Files.writeString(file, TWO);
    FakeManager manager = new FakeManager();
    try (ConfigWatch watch = ConfigWatch.start(manager, file, Duration.ofHours(1))) {
      Files.writeString(file, THREE);
      watch.poll();
      Files.writeString(file, THREE); // the same bytes written again
      watch.poll();
      assertThat(manager.applied).containsExactly(List.of("a", "b", "c"));

      // a rewrite of the same bytes seen between its truncation and its end
      Files.writeString(file, FOUR);
      watch.poll();
      Files.writeString(file, "");
      watch.poll();
      Files.writeString(file, FOUR);
      watch.poll();
      watch.poll();
      assertThat(manager.applied)
          .containsExactly(List.of("a", "b", "c"), List.of("a", "b", "c", "d"));
    }
  }

  @Test
  void poll_ignoresAFileLargerThanTheCapLoggingItOncePerChange() throws Exception {
    Files.writeString(file, TWO);
    FakeManager manager = new FakeManager();
    // a valid file of three nodes, made too large by a comment
    String padding = "#" + "x".repeat(ConfigWatch.MAX_BYTES) + "\n";
    try (ConfigWatch watch = ConfigWatch.start(manager, file, Duration.ofHours(1))) {
      Files.writeString(file, THREE + padding);
      watch.poll();
      watch.poll();
      watch.poll();
      assertThat(manager.applied).isEmpty();
      assertThat(warnings).singleElement().asString().contains("more than the 1048576 bytes");

      Files.writeString(file, THREE + padding + padding); // another change, still too large
      watch.poll();
      watch.poll();
      assertThat(manager.applied).isEmpty();
      assertThat(warnings).hasSize(2);

      Files.writeString(file, FOUR);
      watch.poll();
      watch.poll();
      assertThat(manager.applied).containsExactly(List.of("a", "b", "c", "d"));
    }
  }

  @Test
  void poll_keepsPollingAfterAnErrorAndRetriesTheChange() throws Exception {
    Files.writeString(file, TWO);
    FakeManager manager =
        new FakeManager(
            List.of(
                next -> {
                  throw new OutOfMemoryError("Java heap space");
                },
                next -> {
                  throw new StackOverflowError();
                }));
    try (ConfigWatch watch = ConfigWatch.start(manager, file, Duration.ofHours(1))) {
      Files.writeString(file, THREE);
      for (int i = 0; i < 3; i++) {
        assertThatCode(watch::poll).doesNotThrowAnyException();
      }
      assertThat(manager.applied).isEmpty();
      assertThat(warnings)
          .satisfiesExactly(
              w ->
                  assertThat(w).contains("failed; the next poll runs").contains("OutOfMemoryError"),
              w -> assertThat(w).contains("StackOverflowError"));

      watch.poll();
      assertThat(manager.applied).containsExactly(List.of("a", "b", "c"));
    }
  }

  @Test
  void scheduledPolling_survivesAnError() throws Exception {
    Files.writeString(file, TWO);
    CountDownLatch applied = new CountDownLatch(1);
    List<String> nodes = new CopyOnWriteArrayList<>();
    FakeManager manager =
        new FakeManager(
            List.of(
                next -> {
                  throw new StackOverflowError();
                },
                next -> {
                  throw new OutOfMemoryError("Java heap space");
                },
                next -> {
                  nodes.addAll(next.nodes().stream().map(NodeConfig::id).toList());
                  applied.countDown();
                }));
    ConfigWatch watch = ConfigWatch.start(manager, file, Duration.ofMillis(1));
    try {
      Files.writeString(file, THREE);
      // a task that threw would never run again, and the third reconfigure never come
      assertThat(applied.await(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      watch.close();
    }
    assertThat(nodes).containsExactly("a", "b", "c");
  }

  @Test
  void poll_logsAnInvalidContentOnceAndAppliesALaterValidOne() throws Exception {
    Files.writeString(file, TWO);
    FakeManager manager = new FakeManager();
    try (ConfigWatch watch = ConfigWatch.start(manager, file, Duration.ofHours(1))) {
      Files.writeString(file, "nodes:\n  - { id: a, weight: -1 }\n");
      for (int i = 0; i < 5; i++) {
        watch.poll();
      }
      assertThat(warnings).singleElement().asString().contains("chash.yaml:2:22");

      Files.writeString(file, "nodes:\n  - { id: a, weight: 0 }\n"); // another invalid content
      for (int i = 0; i < 5; i++) {
        watch.poll();
      }
      assertThat(warnings).hasSize(2);
      assertThat(manager.applied).isEmpty();

      Files.writeString(file, THREE);
      watch.poll();
      watch.poll();
      assertThat(manager.applied).containsExactly(List.of("a", "b", "c"));
    }
  }

  /**
   * A file whose merge key names its own open anchor hung the poll thread for good, so the next
   * valid file was never applied (issue 43, point 1). The timeout only turns a hang into a failure.
   */
  @Test
  void poll_refusesASelfMergingFileWithItsPositionAndAppliesTheNextValidOne() throws Exception {
    Files.writeString(file, TWO);
    FakeManager manager = new FakeManager();
    try (ConfigWatch watch = ConfigWatch.start(manager, file, Duration.ofHours(1))) {
      for (String selfMerge :
          List.of(
              "nodes:\n  - &n { id: a, <<: *n }\n",
              "a: &x {<<: *x}\n",
              "caches: &c { x: {}, <<: *c }\n")) {
        Files.writeString(file, selfMerge);
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () -> {
              watch.poll();
              watch.poll();
            });
        assertThat(watch.problem()).contains("is inside its own anchor");
      }
      assertThat(warnings)
          .hasSize(3)
          .anySatisfy(
              w ->
                  assertThat(w)
                      .contains(
                          "chash.yaml:2:21: alias *n is inside its own anchor &n; a value cannot"
                              + " contain itself"));

      Files.writeString(file, THREE);
      watch.poll();
      watch.poll();
      assertThat(manager.applied).containsExactly(List.of("a", "b", "c"));
      assertThat(watch.problem()).isNull();
    }
  }

  @Test
  void poll_retriesAChangeTheManagerCouldNotApplyLoggingTheFailureOnce() throws Exception {
    Files.writeString(file, TWO);
    Consumer<ChashConfig> failing =
        next -> {
          throw new IllegalStateException("node c cannot be created: connection refused");
        };
    FakeManager manager = new FakeManager(List.of(failing, failing, failing));
    try (ConfigWatch watch = ConfigWatch.start(manager, file, Duration.ofHours(1))) {
      Files.writeString(file, THREE);
      for (int i = 0; i < 4; i++) {
        watch.poll();
      }
      assertThat(manager.applied).isEmpty();
      assertThat(warnings)
          .singleElement()
          .asString()
          .contains("cannot be applied")
          .contains("node c cannot be created");

      watch.poll(); // the node can be created now
      assertThat(manager.applied).containsExactly(List.of("a", "b", "c"));
      watch.poll();
      assertThat(manager.applied).hasSize(1);
      assertThat(warnings).hasSize(1);
    }
  }

  /**
   * A manager that records the node ids of each configuration it applies; its first reconfigures
   * run the given actions instead (which may throw).
   */
  private static final class FakeManager implements ShardedCacheManager {
    final List<List<String>> applied = new CopyOnWriteArrayList<>();
    private final Queue<Consumer<ChashConfig>> first;

    FakeManager() {
      this(List.of());
    }

    FakeManager(List<Consumer<ChashConfig>> first) {
      this.first = new ArrayDeque<>(first);
    }

    @Override
    public void reconfigure(ChashConfig next) {
      Consumer<ChashConfig> action = first.poll();
      if (action != null) {
        action.accept(next);
      }
      applied.add(next.nodes().stream().map(NodeConfig::id).toList());
    }

    @Override
    public ShardedCache cache(String name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Set<String> cacheNames() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Ring ring() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Ring liveRing() {
      throw new UnsupportedOperationException();
    }

    @Override
    public CacheNode node(String id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<NodeConfig> nodeConfigs() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, CacheStats> nodeStats() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<String, CacheStats> cacheStats() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void addNode(NodeConfig node) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void removeNode(String id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void reweight(String id, int weight) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void drain(String id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void readmit(String id) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Set<String> drained() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}
  }
}
