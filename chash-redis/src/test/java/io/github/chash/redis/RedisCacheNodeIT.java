package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.CacheNode;
import io.github.chash.cache.CacheNodeException;
import io.github.chash.cache.ValueRefusedException;
import io.github.chash.cache.ValueType;
import io.github.chash.config.ChashConfig;
import io.github.chash.config.FailoverConfig;
import io.github.chash.config.NodeConfig;
import io.github.chash.config.OnRejoin;
import io.github.chash.config.RedisConfig;
import io.github.chash.internal.cache.NullValue;
import io.github.chash.internal.codec.CodecValues;
import io.github.chash.internal.codec.CodecValues.Order;
import io.github.chash.internal.codec.JdkSerializationCodec;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RedisCacheNodeIT {
  private static final String PASSWORD = "it-secret-" + Long.toHexString(System.nanoTime());
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
  }

  static ChashConfig config(RedisConfig redis, Duration timeout) {
    return ChashConfig.builder()
        .source("<test>")
        .node(NodeConfig.local("other")) // a node of the file; the one under test is made apart
        .failover(new FailoverConfig(3, Duration.ofSeconds(1), timeout, OnRejoin.FLUSH))
        .redis(redis)
        .build();
  }

  private static CacheNode node(String uri) {
    return node(uri, RedisConfig.defaults(), Map.<String, String>of()::get);
  }

  private static CacheNode node(String uri, RedisConfig redis, Function<String, String> env) {
    CacheNode node =
        new RedisCacheNodeFactory(env)
            .create(NodeConfig.redis("r1", uri), config(redis, Duration.ofMillis(500)));
    node.awaitReady(); // as a manager does for all its nodes at once
    return node;
  }

  @Test
  void put_thenGet_roundTripsUnderThePrefixWithTtl() {
    try (CacheNode node = node(server.uri())) {
      node.put("users:42", "ada", Duration.ofMinutes(10));

      assertThat(node.get("users:42", ValueType.of(String.class))).isEqualTo("ada");
      assertThat(server.keys("*")).containsExactly("chash:users:42");
      long pttl = (Long) server.command("PTTL", "chash:users:42");
      assertThat(pttl).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(10).toMillis());
    }
  }

  @Test
  void put_withoutTtl_neverExpires() {
    try (CacheNode node = node(server.uri())) {
      node.put("users:1", "x", null);

      // the CacheNode contract: a null TTL is no expiry (the server's maxmemory policy bounds it)
      assertThat(server.command("PTTL", "chash:users:1")).isEqualTo(-1L);
    }
  }

  @Test
  void get_missingKey_isNull() {
    try (CacheNode node = node(server.uri())) {
      assertThat(node.get("nope", ValueType.OBJECT)).isNull();
    }
  }

  @Test
  void put_nullMarker_roundTrips() {
    try (CacheNode node = node(server.uri())) {
      node.put("k", NullValue.INSTANCE, Duration.ofMinutes(1));

      assertThat(node.get("k", ValueType.of(String.class))).isSameAs(NullValue.INSTANCE);
    }
  }

  @Test
  void evict_removesTheKey() {
    try (CacheNode node = node(server.uri())) {
      node.put("k", 1, Duration.ofMinutes(1));
      node.evict("k");

      assertThat(node.get("k", ValueType.OBJECT)).isNull();
      assertThat(server.keys("*")).isEmpty();
    }
  }

  @Test
  void clear_removesOnlyKeysUnderThePrefix() {
    server.command("SET", "other:app", "keep");
    server.command("SET", "chashy", "keep");
    try (CacheNode node = node(server.uri())) {
      for (int i = 0; i < 2500; i++) {
        node.put("c:" + i, i, Duration.ofMinutes(1));
      }
      assertThat(server.keys("chash:*")).hasSize(2500);

      node.clear();

      assertThat(server.keys("*")).containsExactlyInAnyOrder("other:app", "chashy");
    }
  }

  @Test
  void clear_prefixWithGlobCharacters_matchesLiterally() {
    server.command("SET", "app1:x", "keep");
    RedisConfig redis = new RedisConfig("app[1]:", "jdk", List.of());
    try (CacheNode node = node(server.uri(), redis, Map.<String, String>of()::get)) {
      node.put("x", 1, Duration.ofMinutes(1));
      assertThat(server.keys("*")).containsExactlyInAnyOrder("app1:x", "app[1]:x");

      node.clear();

      assertThat(server.keys("*")).containsExactly("app1:x");
    }
  }

  @Test
  void database_isSelectedFromTheUri() {
    try (CacheNode node = node(server.uri() + "/3")) {
      node.put("k", "v", Duration.ofMinutes(1));

      assertThat(server.keys("*")).isEmpty();
      assertThat(server.command("SELECT", "3")).isEqualTo("OK");
      assertThat(node.get("k", ValueType.OBJECT)).isEqualTo("v");
    }
  }

  @Test
  void ping_answers() {
    try (CacheNode node = node(server.uri())) {
      node.ping();
    }
  }

  @Test
  void get_killedServer_failsFastAsCacheNodeException() {
    try (CacheNode node = node(server.uri())) {
      node.put("k", "v", Duration.ofMinutes(1));
      server.kill();

      assertThatThrownBy(() -> node.get("k", ValueType.OBJECT))
          .isInstanceOf(CacheNodeException.class)
          .hasMessageStartingWith(
              "node \"r1\": get failed on redis://127.0.0.1:" + server.port() + "/0");
      assertThatThrownBy(node::ping).isInstanceOf(CacheNodeException.class);
    }
  }

  @Test
  void get_afterRestart_reconnectsAndServes() throws InterruptedException {
    try (CacheNode node = node(server.uri())) {
      node.put("k", "v1", Duration.ofMinutes(1));
      server.kill();
      server.restart();

      awaitPing(node);
      assertThat(node.get("k", ValueType.OBJECT)).isNull();
      node.put("k", "v2", Duration.ofMinutes(1));
      assertThat(node.get("k", ValueType.OBJECT)).isEqualTo("v2");
    }
  }

  @Test
  void put_whileDisconnected_isNeverReplayedAfterReconnect() throws InterruptedException {
    try (CacheNode node = node(server.uri())) {
      node.ping();
      server.kill();
      assertThatThrownBy(() -> node.put("late", "v", Duration.ofMinutes(1)))
          .isInstanceOf(CacheNodeException.class);
      server.restart();

      awaitPing(node);
      Thread.sleep(200);
      assertThat(server.keys("*")).isEmpty();
    }
  }

  @Test
  void get_frozenServer_timesOutAsCacheNodeException() {
    try (CacheNode node = node(server.uri())) {
      node.put("k", "v", Duration.ofMinutes(1));
      server.pause();
      try {
        assertThatThrownBy(() -> node.get("k", ValueType.OBJECT))
            .isInstanceOf(CacheNodeException.class)
            .hasMessageContaining("timed out");
      } finally {
        server.resume();
      }
    }
  }

  @Test
  void create_unreachableServer_doesNotFailAndConnectsOnceItIsUp() throws InterruptedException {
    int port = server.port();
    server.kill();
    try (CacheNode node = node("redis://127.0.0.1:" + port)) {
      assertThatThrownBy(node::ping).isInstanceOf(CacheNodeException.class);
      server.restart();

      awaitPing(node);
      node.put("k", "v", Duration.ofMinutes(1));
      assertThat(node.get("k", ValueType.OBJECT)).isEqualTo("v");
    }
  }

  @Test
  void get_valueOfRefusedClass_isRefusedAndLogsTheClassName() {
    byte[] order =
        new JdkSerializationCodec(List.of("io.github.chash.**"))
            .encode(new Order(1, "ada", BigDecimal.ONE, List.of()));
    server.setEntry("chash:orders:1", order);
    try (CapturedLogs logs = CapturedLogs.start();
        CacheNode node = node(server.uri())) {

      assertThatThrownBy(() -> node.get("orders:1", ValueType.of(Order.class)))
          .isInstanceOf(ValueRefusedException.class)
          .hasMessageContaining("is not allowed by redis.allow");

      assertThat(logs.lines())
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith("WARNING")
                      .contains(
                          "node \"r1\": stored value read as a miss: class "
                              + Order.class.getName()
                              + " is not allowed by redis.allow"));
    }
  }

  @Test
  void get_valueOfAnotherType_isRefused() {
    try (CacheNode node = node(server.uri())) {
      node.put("k", "a string", Duration.ofMinutes(1));

      assertThatThrownBy(() -> node.get("k", ValueType.of(Integer.class)))
          .isInstanceOf(ValueRefusedException.class)
          .hasMessageContaining("is not a java.lang.Integer");
      assertThat(node.get("k", ValueType.of(CharSequence.class))).isEqualTo("a string");
    }
  }

  @Test
  void put_notSerializable_isRefusedAndNothingIsSent() {
    try (CacheNode node = node(server.uri())) {
      assertThatThrownBy(() -> node.put("k", new Object(), Duration.ofMinutes(1)))
          .isInstanceOf(ValueRefusedException.class)
          .hasMessageContaining("is not serializable");

      assertThat(server.keys("*")).isEmpty();
    }
  }

  @Test
  void jacksonCodec_decodesRecordsFromJson() {
    RedisConfig redis = new RedisConfig("chash:", "jackson", List.of());
    Order order =
        new Order(3, "ada", new BigDecimal("1.25"), List.of(new CodecValues.Line("x", 1)));
    try (CacheNode node = node(server.uri(), redis, Map.<String, String>of()::get)) {
      node.put("orders:3", order, Duration.ofMinutes(1));

      assertThat(
              new String(
                  server.getEntry("chash:orders:3"), java.nio.charset.StandardCharsets.UTF_8))
          .startsWith("{")
          .contains("\"customer\":\"ada\"");
      assertThat(node.get("orders:3", ValueType.of(Order.class))).isEqualTo(order);
    }
  }

  @Test
  void password_fromEnvironmentPlaceholder_authenticatesAndNeverShows()
      throws InterruptedException {
    try (RedisServerProcess secured = RedisServerProcess.start(PASSWORD);
        CapturedLogs logs = CapturedLogs.start()) {
      Function<String, String> env = Map.of("CHASH_IT_REDIS_PASSWORD", PASSWORD)::get;
      String uri = "redis://:${env:CHASH_IT_REDIS_PASSWORD}@127.0.0.1:" + secured.port() + "/0";
      StringBuilder seen = new StringBuilder();
      try (CacheNode node = node(uri, RedisConfig.defaults(), env)) {
        node.put("k", "v", Duration.ofMinutes(1));
        assertThat(node.get("k", ValueType.OBJECT)).isEqualTo("v");
        assertThat(secured.keys("*")).containsExactly("chash:k");
        seen.append(node).append('\n');
        assertThat(node.toString())
            .isEqualTo("redis-node[r1, redis://***@127.0.0.1:" + secured.port() + "/0]");

        // failures carry messages and causes: none may hold the password
        secured.kill();
        seen.append(messages(catchFailure(() -> node.get("k", ValueType.OBJECT))));
        secured.restart();
        awaitPing(node);
      }
      // a wrong password fails, and says so without either password
      Function<String, String> wrongEnv =
          Map.of("CHASH_IT_REDIS_PASSWORD", "wrong-" + PASSWORD)::get;
      try (CacheNode wrong = node(uri, RedisConfig.defaults(), wrongEnv)) {
        seen.append(messages(catchFailure(wrong::ping)));
      }
      seen.append(logs.text());
      assertThat(seen.toString()).isNotEmpty().doesNotContain(PASSWORD);
    }
  }

  @Test
  void create_withCredentialsAndLettuceWireTrace_warnsThatTraceLogsAuth() {
    try (CapturedLogs logs = CapturedLogs.start(java.util.logging.Level.ALL);
        CacheNode node =
            node(
                "redis://:${env:PW}@127.0.0.1:" + server.port(),
                RedisConfig.defaults(),
                Map.of("PW", PASSWORD)::get)) {
      assertThat(node.id()).isEqualTo("r1");
      assertThat(logs.lines())
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith("WARNING")
                      .contains("logger io.lettuce.core.protocol.CommandEncoder is at TRACE")
                      .contains("redis://***@127.0.0.1:" + server.port() + "/0")
                      .doesNotContain(PASSWORD));
    }
  }

  private static Throwable catchFailure(Runnable call) {
    try {
      call.run();
    } catch (CacheNodeException e) {
      return e;
    }
    throw new AssertionError("expected a CacheNodeException");
  }

  private static String messages(Throwable t) {
    StringBuilder out = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      out.append(c).append('\n');
      for (Throwable s : c.getSuppressed()) {
        out.append(s).append('\n');
      }
    }
    return out.toString();
  }

  static void awaitPing(CacheNode node) {
    Awaitility.await(node.id() + " answers a ping")
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20))
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptionsInstanceOf(CacheNodeException.class) // not yet
        .until(
            () -> {
              node.ping();
              return true;
            });
  }
}
