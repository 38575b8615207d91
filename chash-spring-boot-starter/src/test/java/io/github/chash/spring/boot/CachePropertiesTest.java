package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.config.CacheConfig;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.ChashConfigs;
import io.github.chash.config.KeyLayout;
import io.github.chash.internal.cache.InterceptedCache;
import io.github.chash.ring.Node;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code chash.caches.<name>.ttl}: a cache's time to live as a Spring property, over chash.yaml's,
 * at startup and after {@code chash.watch} applies a change of the file.
 */
class CachePropertiesTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir Path dir;

  private ApplicationContextRunner runner(String yaml) throws Exception {
    Path file = Files.writeString(dir.resolve("chash.yaml"), yaml, StandardCharsets.UTF_8);
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ChashAutoConfiguration.class))
        .withPropertyValues("chash.config=" + file.toUri());
  }

  private static Duration ttl(ShardedCacheManager manager, String cache) {
    return InterceptedCache.of(manager.cache(cache)).ttl();
  }

  private static final String FILE =
      "nodes:\n  - id: a\n  - id: b\ncaches:\n"
          + "  users: { ttl: 10m, jitter: 10% }\n  products: { ttl: 1h }\n";

  @Test
  void propertyTtl_winsOverTheFiles_andAddsACacheTheFileLacks() throws Exception {
    runner(FILE)
        .withPropertyValues("chash.caches.users.ttl=1m", "chash.caches.orders.ttl=5m")
        .run(
            context -> {
              ShardedCacheManager manager = context.getBean(ShardedCacheManager.class);
              assertThat(ttl(manager, "users")).isEqualTo(Duration.ofMinutes(1));
              assertThat(ttl(manager, "products")).isEqualTo(Duration.ofHours(1));
              assertThat(ttl(manager, "orders")).isEqualTo(Duration.ofMinutes(5));
            });
  }

  @Test
  void propertyTtlThatBreaksTheFilesRule_failsTheStartupNamingTheProperty() throws Exception {
    runner("nodes:\n  - id: a\ncaches:\n  users: { ttl: 10m, nullTtl: 5m }\n")
        .withPropertyValues("chash.caches.users.ttl=1m")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasStackTraceContaining(
                        "chash.caches.users.ttl=PT1M cannot apply: nullTtl of cache \"users\""
                            + " must not be longer than the ttl"));
  }

  @Test
  void propertyTtl_keepsEveryOtherSettingOfTheFilesCache() {
    ChashConfig file =
        ChashConfigs.parse(
            "nodes:\n  - id: a\ncaches:\n"
                + "  legacy: { ttl: 10m, jitter: 10%, keys: verbatim, codec: string }\n",
            "chash.yaml");
    ChashProperties.CacheSettings legacy = new ChashProperties.CacheSettings();
    legacy.setTtl(Duration.ofMinutes(1));

    CacheConfig adjusted =
        new ConfigAdjustment(Map.of("legacy", legacy), null, null)
            .apply(file)
            .caches()
            .get("legacy");

    assertThat(adjusted.ttl()).isEqualTo(Duration.ofMinutes(1));
    assertThat(adjusted.jitter()).isEqualTo(0.1);
    assertThat(adjusted.keys()).isEqualTo(KeyLayout.VERBATIM);
    assertThat(adjusted.codec()).isEqualTo("string");
  }

  @Test
  void propertyTtl_isKeptWhenTheWatchAppliesAChangeOfTheFile() throws Exception {
    Path file = dir.resolve("chash.yaml");
    // a running manager keeps its caches' ttls and logs a ttl that the next start would change:
    // the file's ttl without the property would be such a change
    List<String> logged = new CopyOnWriteArrayList<>();
    Logger managerLog = Logger.getLogger("io.github.chash.cache.RingCacheManager");
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.add(
                record.getParameters() == null
                    ? record.getMessage()
                    : MessageFormat.format(record.getMessage(), record.getParameters()));
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    managerLog.addHandler(capture);
    try {
      watchAddsANode(file);
    } finally {
      managerLog.removeHandler(capture);
    }
    assertThat(logged).noneMatch(m -> m.contains("the ttl of cache"));
  }

  private void watchAddsANode(Path file) throws Exception {
    runner(FILE)
        .withPropertyValues("chash.caches.users.ttl=1m", "chash.watch=100ms")
        .run(
            context -> {
              ShardedCacheManager manager = context.getBean(ShardedCacheManager.class);
              Files.writeString(file, FILE.replace("  - id: b\n", "  - id: b\n  - id: c\n"));
              long deadline = System.nanoTime() + DEADLINE.toNanos();
              while (manager.ring().nodes().stream().map(Node::id).noneMatch("c"::equals)) {
                assertThat(System.nanoTime()).as("node c joins").isLessThan(deadline);
                Thread.sleep(10);
              }
              assertThat(ttl(manager, "users")).isEqualTo(Duration.ofMinutes(1));
            });
  }
}
