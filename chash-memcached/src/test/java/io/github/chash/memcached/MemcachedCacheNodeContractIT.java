package io.github.chash.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeContractTest;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.MemcachedConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.OnRejoin;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The node contract on a real memcached, with a 64 KB value limit. */
class MemcachedCacheNodeContractIT extends CacheNodeContractTest {
  private static MemcachedServerProcess server;

  @BeforeAll
  static void startServer() {
    server = MemcachedServerProcess.start();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) { // null when the server's binary is missing and the tests were skipped
      server.close();
    }
  }

  /** A configuration of one memcached node with these settings and command timeout. */
  static ChashConfig config(String uri, MemcachedConfig memcached, Duration timeout) {
    return ChashConfig.builder()
        .node(NodeConfig.memcached("n1", uri))
        .memcached(memcached)
        .failover(new FailoverConfig(3, Duration.ofSeconds(1), timeout, OnRejoin.FLUSH))
        .build();
  }

  @Override
  protected CacheNode createNode() {
    server.flushAll();
    MemcachedConfig memcached = new MemcachedConfig("chash:", "jdk", List.of(), 64 << 10);
    ChashConfig config = config(server.uri(), memcached, Duration.ofSeconds(1));
    return new MemcachedCacheNodeFactory(Map.<String, String>of()::get)
        .create(config.nodes().get(0), config);
  }

  @Override
  protected void assertNeverExpires(CacheNode node, String key) {
    assertThat(server.ttlSeconds("chash:" + key)).isEqualTo(-1L);
  }

  @Override
  protected boolean writeForeignEntry() {
    server.setBytes("other-app:1", "theirs".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return true;
  }

  @Override
  protected boolean foreignEntryExists() {
    return server.exists("other-app:1");
  }

  @Override
  protected Object valueItRefuses() {
    return "x".repeat(100 << 10);
  }

  @Override
  protected boolean countsEntries() {
    return false; // memcached cannot count one application's keys
  }
}
