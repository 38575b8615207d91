package io.github.chash.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.RingSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChashConfigBuilderTest {

  @Test
  void build_sameModelAsParsing() {
    ChashConfig built =
        ChashConfig.builder()
            .source("chash.yaml")
            .ring(RingSettings.of(Algorithm.MAGLEV))
            .node(new NodeConfig("a", NodeType.LOCAL, 2, 500, null))
            .node(NodeConfig.redis("b", "redis://${env:PW}@b:6380"))
            .cache(new CacheConfig("users", Duration.ofMinutes(10)))
            .failover(
                new FailoverConfig(2, Duration.ofSeconds(5), Duration.ofMillis(50), OnRejoin.KEEP))
            .build();
    ChashConfig parsed =
        ChashConfigs.parse(
            "ring: {algorithm: maglev}\n"
                + "nodes:\n"
                + "  - {id: a, weight: 2, maximumSize: 500}\n"
                + "  - {id: b, type: redis, uri: 'redis://${env:PW}@b:6380'}\n"
                + "caches: {users: {ttl: 10m}}\n"
                + "failover: {failureLimit: 2, retryAfter: 5s, timeout: 50ms, onRejoin: keep}\n",
            "chash.yaml");

    assertThat(built).isEqualTo(parsed);
  }

  @Test
  void build_defaults() {
    ChashConfig config = ChashConfig.builder().node(NodeConfig.local("a")).build();

    assertThat(config.source()).isEqualTo("<programmatic>");
    assertThat(config.ring()).isEqualTo(RingSettings.defaults());
    assertThat(config.failover()).isEqualTo(FailoverConfig.defaults());
    assertThat(config.redis()).isEqualTo(RedisConfig.defaults());
    assertThat(config.check()).isEqualTo(CheckConfig.defaults());
    assertThat(config.caches()).isEmpty();
  }

  @Test
  void build_noNodes_isStateError() {
    assertThatThrownBy(() -> ChashConfig.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("at least one node is required");
  }

  @Test
  void build_jumpWithWeight_isStateError() {
    assertThatThrownBy(
            () ->
                ChashConfig.builder()
                    .ring(RingSettings.of(Algorithm.JUMP))
                    .node(new NodeConfig("a", NodeType.LOCAL, 2, 10, null))
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "weight of node \"a\" must be 1 for algorithm jump (jump knows buckets, not weights),"
                + " was 2");
  }

  @Test
  void setters_secondCall_isStateError() {
    ChashConfig.Builder b = ChashConfig.builder().failover(FailoverConfig.defaults());

    assertThatThrownBy(() -> b.failover(FailoverConfig.defaults()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("failover was already set to " + FailoverConfig.defaults());
    assertThatThrownBy(() -> ChashConfig.builder().source("x").source("y"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("source was already set to x");
    assertThatThrownBy(
            () -> ChashConfig.builder().ring(RingSettings.defaults()).ring(RingSettings.defaults()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("ring was already set to RingSettings{");
  }

  @Test
  void node_badArguments() {
    assertThatThrownBy(
            () -> ChashConfig.builder().node(NodeConfig.local("a")).node(NodeConfig.local("a")))
        .hasMessage("duplicate node id \"a\"");
    assertThatThrownBy(
            () -> ChashConfig.builder().node(new NodeConfig("a", NodeType.LOCAL, -1, 10, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("weight of node \"a\" must be a positive integer, was -1");
    assertThatThrownBy(
            () -> ChashConfig.builder().node(NodeConfig.redis("r", "redis://u:secret@h")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("uri of node \"r\" contains a plain-text password; use ${env:NAME}");
    assertThatThrownBy(
            () ->
                ChashConfig.builder()
                    .node(NodeConfig.redis("r", "redis://h"))
                    .node(NodeConfig.redis("s", "rediss://H:6379/0")))
        .hasMessage("uri of node \"s\" points to the same server as node \"r\" (h:6379/0)");
    assertThatThrownBy(
            () -> ChashConfig.builder().node(new NodeConfig("r", NodeType.REDIS, 1, 0, null)))
        .hasMessage("uri of node \"r\" is required for type redis");
    assertThatThrownBy(
            () -> ChashConfig.builder().node(new NodeConfig("l", NodeType.LOCAL, 1, 0, null)))
        .hasMessage("maximumSize of node \"l\" must be a positive integer, was 0");
  }

  @Test
  void otherSetters_badArguments() {
    assertThatThrownBy(
            () ->
                ChashConfig.builder()
                    .cache(new CacheConfig("c", null))
                    .cache(new CacheConfig("c", Duration.ofSeconds(1))))
        .hasMessage("cache \"c\" was already added");
    assertThatThrownBy(() -> ChashConfig.builder().cache(new CacheConfig("c", Duration.ZERO)))
        .hasMessage("ttl of cache \"c\" must be positive, was \"0ms\"");
    assertThatThrownBy(
            () -> ChashConfig.builder().redis(new RedisConfig("chash:", "jdk", List.of("*"))))
        .hasMessage(
            "redis.allow entry allows every class, was \"*\"; name packages (com.example.*) or"
                + " classes");
    assertThatThrownBy(
            () ->
                ChashConfig.builder()
                    .check(new CheckConfig(0.5, 10, "k:{n}", null, null, null, null)))
        .hasMessage(
            "check.maxSkew must be at least 1.0 (a node's share / its fair share), was 0.5");
    assertThatThrownBy(
            () ->
                ChashConfig.builder()
                    .check(new CheckConfig(1.2, 10, "k:{n}", null, null, 1.5, null)))
        .hasMessage("check.maxMoved must be a fraction in (0, 1], was 1.5");
  }
}
