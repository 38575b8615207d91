package io.github.chash.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ValueType;
import io.github.chash.internal.cache.InterceptedCache;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A memcached node whose server is dead does not flood the log: XMemcached's reconnect errors (25
 * lines, 15 with a stack trace, in 5 s without the starter's levels) are off, unless the
 * application set a level for its loggers. The log is read over a window of XMemcached's reconnect
 * attempts after the node was ejected: a volume, not a timing, is asserted.
 */
class DeadMemcachedLogTest {
  /** Long enough for XMemcached to retry several times (it did 8 times in 5 s). */
  private static final long WINDOW_MILLIS = 3000;

  @TempDir Path dir;

  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

  @BeforeEach
  void capture() {
    events.start();
    root.addAppender(events);
  }

  @AfterEach
  void release() {
    root.detachAppender(events);
    // levels are global to the logger context: give the next test XMemcached's defaults
    LoggerContext context = root.getLoggerContext();
    for (String name : XMemcachedLogging.LOGGERS) {
      context.getLogger(name).setLevel((Level) null);
    }
  }

  private ApplicationContextRunner deadMemcached() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort(); // closed: nothing listens there
    }
    Path yaml = dir.resolve("chash.yaml");
    Files.writeString(
        yaml,
        "nodes:\n  - id: local\n  - id: mc\n    type: memcached\n    uri: memcached://127.0.0.1:"
            + port
            + "\ncaches:\n  users: {}\n"
            + "failover: { failureLimit: 2, retryAfter: 100ms, timeout: 200ms }\n");
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ChashAutoConfiguration.class))
        .withPropertyValues("chash.config=" + yaml.toUri());
  }

  /** Calls the cache until the dead node is ejected, then lets XMemcached retry for the window. */
  private static void ejectAndWait(ShardedCacheManager manager) throws InterruptedException {
    InterceptedCache users = InterceptedCache.of(manager.cache("users"));
    for (int i = 0; i < 1000 && manager.liveRing().size() == 2; i++) {
      users.getIfPresent("users:" + i, ValueType.OBJECT);
    }
    assertThat(manager.liveRing().size()).isEqualTo(1);
    Thread.sleep(WINDOW_MILLIS);
  }

  /**
   * The events so far: XMemcached's threads keep appending while the test reads, and {@code
   * AppenderBase.doAppend} holds the appender's lock, so a copy under it is consistent.
   */
  private List<ILoggingEvent> logged() {
    synchronized (events) {
      return List.copyOf(events.list);
    }
  }

  private List<ILoggingEvent> xmemcachedEvents() {
    return logged().stream()
        .filter(e -> XMemcachedLogging.LOGGERS.stream().anyMatch(e.getLoggerName()::startsWith))
        .toList();
  }

  @Test
  void deadServer_logsNothingFromXMemcached() throws IOException {
    deadMemcached()
        .run(
            context -> {
              ejectAndWait(context.getBean(ShardedCacheManager.class));
              assertThat(xmemcachedEvents()).isEmpty();
              assertThat(logged()).noneMatch(e -> e.getThrowableProxy() != null);
            });
  }

  @Test
  void aLevelTheApplicationSet_isKept() throws IOException {
    deadMemcached()
        .withPropertyValues("logging.level.com.google.code.yanf4j=error")
        .run(
            context -> {
              ejectAndWait(context.getBean(ShardedCacheManager.class));
              assertThat(xmemcachedEvents())
                  .isNotEmpty()
                  .allMatch(e -> e.getLoggerName().startsWith("com.google.code.yanf4j"));
            });
  }
}
