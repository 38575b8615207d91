package io.github.chash.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.config.ChashConfigs;
import io.github.chash.ring.Node;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigWatchTest {
  private static final String TWO = "nodes:\n  - { id: a }\n  - { id: b }\ncaches:\n  users: {}\n";
  private static final String THREE =
      "nodes:\n  - { id: a }\n  - { id: b }\n  - { id: c }\ncaches:\n  users: {}\n";

  @Test
  void poll_appliesAChangedFileAndIgnoresAnInvalidOneWithItsPosition(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("chash.yaml");
    Files.writeString(file, TWO);
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
              warnings.add(new java.util.logging.SimpleFormatter().formatMessage(r));
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger.getLogger("").addHandler(handler);
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
    } finally {
      Logger.getLogger("").removeHandler(handler);
    }
  }
}
