package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNode.Held;
import io.github.chash.cache.Marker;
import io.github.chash.cache.ValueType;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.RedisConfig;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The conditional calls send their scripts' text once a server, then call them by SHA ({@code
 * EVALSHA}); a server that lost them (restarted, or {@code SCRIPT FLUSH}) is sent the text again,
 * and the call still applies exactly once. Counted by the server itself ({@code INFO
 * commandstats}).
 */
class RedisScriptsIT {
  private static final Duration TTL = Duration.ofMinutes(1);
  private static RedisServerProcess server;

  @BeforeAll
  static void startServer() {
    server = RedisServerProcess.start();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) { // null when the server's binary is missing and the tests were skipped
      server.close();
    }
  }

  @BeforeEach
  void emptyServer() {
    if (!server.isRunning()) {
      server.restart();
    }
    server.command("FLUSHALL");
    server.command("SCRIPT", "FLUSH");
    server.command("CONFIG", "RESETSTAT");
  }

  private static CacheNode node() {
    CacheNode node =
        new RedisCacheNodeFactory(name -> null)
            .create(
                NodeConfig.redis("r1", server.uri()),
                RedisCacheNodeIT.config(RedisConfig.defaults(), Duration.ofSeconds(2)));
    node.awaitReady();
    return node;
  }

  @Test
  void conditionalCalls_sendEachScriptOnce_thenCallItBySha() {
    try (CacheNode node = node()) {
      for (int i = 0; i < 5; i++) {
        leaseThenFill(node, "k" + i);
      }

      // three scripts (the incarnation's vetting, lease, putIf), each sent once; the other eight
      // calls by SHA
      assertThat(calls("eval")).isEqualTo(3);
      assertThat(calls("evalsha")).isEqualTo(8);
      assertThat(node.get("k4", ValueType.OBJECT)).isEqualTo("v");
    }
  }

  @Test
  void scriptFlush_isAnsweredBySendingTheTextAgain() {
    try (CacheNode node = node()) {
      leaseThenFill(node, "before");
      server.command("SCRIPT", "FLUSH");

      leaseThenFill(node, "after");
      Held held = node.getHeld("after", ValueType.OBJECT).join();
      assertThat(node.deleteIf("after", held)).isTrue();

      assertThat(node.get("before", ValueType.OBJECT)).isEqualTo("v");
      assertThat(node.get("after", ValueType.OBJECT)).isNull();
      // three times before the flush (the vetting, lease, putIf), three times after
      assertThat(calls("eval")).isEqualTo(6);
    }
  }

  @Test
  void restartedServer_isSentTheScriptsAgain() throws InterruptedException {
    try (CacheNode node = node()) {
      leaseThenFill(node, "before");
      server.kill();
      server.restart();
      RedisCacheNodeIT.awaitPing(node);

      leaseThenFill(node, "after");
      leaseThenFill(node, "again");

      assertThat(node.get("after", ValueType.OBJECT)).isEqualTo("v");
      assertThat(node.get("again", ValueType.OBJECT)).isEqualTo("v");
      // a fresh server's counters: "after" sent them (the vetting of its incarnation too)
      assertThat(calls("eval")).isEqualTo(3);
      assertThat(calls("evalsha")).isEqualTo(2); // "again" called them by SHA
    }
  }

  /** A lease, then the fill that replaces it: both conditional, both applied. */
  private static void leaseThenFill(CacheNode node, String key) {
    Marker lease = Marker.lease();
    assertThat(node.lease(key, lease, TTL)).isTrue();
    assertThat(node.putIfLeased(key, lease, "v", TTL)).isTrue();
  }

  /**
   * Calls of a command that succeeded (a {@code NOSCRIPT} answer is a failed call), from {@code
   * INFO commandstats}; 0 if it never ran.
   */
  private static long calls(String command) {
    String stats = (String) server.command("INFO", "commandstats");
    Matcher m =
        Pattern.compile("cmdstat_" + command + ":calls=(\\d+),.*?failed_calls=(\\d+)")
            .matcher(stats);
    return m.find() ? Long.parseLong(m.group(1)) - Long.parseLong(m.group(2)) : 0;
  }
}
