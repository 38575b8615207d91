package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ConfigWatch;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.ring.Node;
import io.github.chash.spring.boot.actuate.ChashActuatorAutoConfiguration;
import io.github.chash.spring.boot.actuate.ChashEndpoint;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code chash.watch}: chash's {@link ConfigWatch} on the file {@code chash.config} names, in a
 * real Spring context over local shards.
 */
class ConfigWatchPropertyTest {
  /** The bound on every wait: far beyond the few intervals a change takes. */
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  ChashAutoConfiguration.class, ChashActuatorAutoConfiguration.class));

  @TempDir Path dir;

  /** What ConfigWatch logs (System.Logger, backed by java.util.logging here). */
  private final List<String> logged = new CopyOnWriteArrayList<>();

  private final Logger watchLog = Logger.getLogger(ConfigWatch.class.getName());

  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          Object[] params = record.getParameters();
          String message = record.getMessage();
          if (params != null) {
            message = java.text.MessageFormat.format(message, params);
          }
          logged.add(message);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void captureTheWatchLog() {
    watchLog.addHandler(capture);
  }

  @AfterEach
  void release() {
    watchLog.removeHandler(capture);
  }

  private static String ring(String... extraNodeLines) {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (String id : List.of("shard-a", "shard-b", "shard-c")) {
      yaml.append("  - id: ").append(id).append('\n');
    }
    for (String line : extraNodeLines) {
      yaml.append(line).append('\n');
    }
    return yaml.append("caches:\n  users: { ttl: 10m }\n").toString();
  }

  private static List<String> nodeIds(ShardedCacheManager manager) {
    return manager.ring().nodes().stream().map(Node::id).sorted().toList();
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("waited %s for %s", DEADLINE, what).isNegative();
      Thread.sleep(10);
    }
  }

  private static boolean watchThreadAlive() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("chash-config-watch") && t.isAlive());
  }

  @Test
  void watchUnset_watchesNothing() throws IOException {
    Path file = dir.resolve("chash.yaml");
    Files.writeString(file, ring(), StandardCharsets.UTF_8);
    runner
        .withPropertyValues("chash.config=" + file.toUri())
        .run(context -> assertThat(context).doesNotHaveBean(ConfigWatch.class));
  }

  @Test
  void addedNode_isLive_invalidFileKeepsTheRunningRing_watchStopsWithTheContext() throws Exception {
    Path file = dir.resolve("chash.yaml");
    Files.writeString(file, ring(), StandardCharsets.UTF_8);
    runner
        .withPropertyValues("chash.config=" + file.toUri(), "chash.watch=100ms")
        .run(
            context -> {
              assertThat(context).hasSingleBean(ConfigWatch.class);
              ShardedCacheManager manager = context.getBean(ShardedCacheManager.class);
              assertThat(nodeIds(manager)).containsExactly("shard-a", "shard-b", "shard-c");

              Files.writeString(file, ring("  - id: shard-d"), StandardCharsets.UTF_8);
              await("shard-d in the ring", () -> nodeIds(manager).contains("shard-d"));
              assertThat(nodeIds(manager))
                  .containsExactly("shard-a", "shard-b", "shard-c", "shard-d");

              // line 6 of the file: "    weight: -1", the value at column 13
              Files.writeString(
                  file,
                  ring("  - id: shard-d", "    weight: -1", "  - id: shard-e"),
                  StandardCharsets.UTF_8);
              await(
                  "the watch to report the invalid file",
                  () -> logged.stream().anyMatch(m -> m.contains("chash.yaml:6:13")));
              assertThat(logged)
                  .anySatisfy(
                      m ->
                          assertThat(m)
                              .contains("is not valid; the running configuration stays")
                              .contains("nodes[3].weight must be a positive"));
              assertThat(nodeIds(manager))
                  .containsExactly("shard-a", "shard-b", "shard-c", "shard-d");

              // health and the endpoint say so, with file:line:column, until a valid file runs
              HealthIndicator health =
                  context.getBean("chashHealthIndicator", HealthIndicator.class);
              Health degraded = health.health();
              assertThat(degraded.getStatus().getCode()).isEqualTo("DEGRADED");
              assertThat(degraded.getStatus().getDescription())
                  .isEqualTo("all 4 nodes live; chash.yaml changed but does not run");
              assertThat(String.valueOf(degraded.getDetails().get("config")))
                  .contains("chash.yaml:6:13: nodes[3].weight must be a positive");
              ChashEndpoint endpoint = context.getBean(ChashEndpoint.class);
              assertThat(endpoint.ring().configProblem())
                  .startsWith(file.toString() + " not valid; the running configuration stays: ")
                  .contains("chash.yaml:6:13: nodes[3].weight must be a positive");
              assertThat(endpoint.ring().nodes()).hasSize(4);

              Files.writeString(file, ring("  - id: shard-d", "  - id: shard-e"));
              // the watch clears its problem once the manager runs the file, just after the ring
              // changed
              await(
                  "the valid file to run",
                  () -> health.health().getStatus().getCode().equals("UP"));
              assertThat(nodeIds(manager)).contains("shard-e");
              assertThat(endpoint.ring().configProblem()).isNull();
            });
    await("the watch thread to stop with the context", () -> !watchThreadAlive());
  }

  @Test
  void configInsideAJar_failsTheStartupSayingChashWatchNeedsAFile() throws IOException {
    Path jar = dir.resolve("app.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream entries = new JarOutputStream(out)) {
      entries.putNextEntry(new JarEntry("chash.yaml"));
      entries.write(ring().getBytes(StandardCharsets.UTF_8));
      entries.closeEntry();
    }
    runner
        .withPropertyValues("chash.config=jar:" + jar.toUri() + "!/chash.yaml", "chash.watch=5s")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("chash.watch needs chash.config to be a file")
                    .hasMessageContaining("file:/etc/app/chash.yaml"));
  }

  @Test
  void nonPositiveInterval_failsTheStartupNamingTheProperty() throws IOException {
    Path file = dir.resolve("chash.yaml");
    Files.writeString(file, ring(), StandardCharsets.UTF_8);
    runner
        .withPropertyValues("chash.config=" + file.toUri(), "chash.watch=0s")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("chash.watch must be a positive duration"));
  }
}
