package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeContractTest;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.RedisConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The node contract on a real redis-server, with a 64 KB value limit. */
class RedisCacheNodeContractIT extends CacheNodeContractTest {
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

  @Override
  protected CacheNode createNode() {
    server.command("FLUSHALL");
    RedisConfig redis = new RedisConfig("chash:", "jdk", List.of(), 64 << 10);
    return new RedisCacheNodeFactory(Map.<String, String>of()::get)
        .create(
            NodeConfig.redis("n1", server.uri()),
            RedisCacheNodeIT.config(redis, Duration.ofSeconds(1)));
  }

  @Override
  protected void assertNeverExpires(CacheNode node, String key) {
    assertThat(server.command("PTTL", "chash:" + key)).isEqualTo(-1L);
  }

  @Override
  protected boolean writeForeignEntry() {
    server.command("SET", "other-app:1", "theirs");
    return true;
  }

  @Override
  protected boolean foreignEntryExists() {
    return "theirs".equals(server.command("GET", "other-app:1"));
  }

  @Override
  protected Object valueItRefuses() {
    return "x".repeat(100 << 10);
  }

  @Override
  protected boolean countsEntries() {
    return false; // counting only this library's keys would take a full SCAN
  }
}
