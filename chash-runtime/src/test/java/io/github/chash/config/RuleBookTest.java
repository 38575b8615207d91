package io.github.chash.config;

import static io.github.chash.config.ConfigTesting.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.chash.cache.ShardedCaches;
import io.github.chash.ring.Algorithm;
import io.github.chash.ring.Node;
import io.github.chash.ring.RingSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 16: each rule is stated once, in the config model, and every way in (chash.yaml, the
 * builders, records made in code, annotation text) reports it in the rule's own words, so changing
 * a rule changes them all. Each test takes the rule's text from the rule itself.
 */
class RuleBookTest {

  @Test
  void ttlRule_sameTextFromYamlBuildersRecordsAndAnnotationText() {
    String fromText = CacheConfig.ttlTextProblem("0s");
    assertThat(problems("nodes: [{ id: a }]\ncaches:\n  users: { ttl: 0s }\n"))
        .containsExactly("chash.yaml:3:17: caches.users.ttl " + fromText);
    // what the aspect and the build-time scanner call for an annotation's ttl = "0s"
    assertThatThrownBy(() -> CacheConfig.parseTtl("0s", "ttl of OrderService.find"))
        .hasMessage("ttl of OrderService.find " + fromText);

    String fromDuration = CacheConfig.ttlProblem(Duration.ZERO);
    assertThatThrownBy(() -> ShardedCaches.builder().cache("users", Duration.ZERO))
        .hasMessage("ttl of cache \"users\" " + fromDuration);
    assertThatThrownBy(() -> new CacheConfig("users", Duration.ofSeconds(-1)))
        .hasMessage("ttl of cache \"users\" " + CacheConfig.ttlProblem(Duration.ofSeconds(-1)));
  }

  @Test
  void cacheNameRule_sameTextFromYamlAndEveryBuilder() {
    String tail = CacheConfig.nameProblem("a:b");
    assertThat(problems("nodes: [{ id: a }]\ncaches:\n  \"a:b\": {}\n"))
        .containsExactly("chash.yaml:3:3: cache name " + tail);
    // ShardedCaches.builder().cache("a:b", ...) used to be accepted while chash.yaml refused it
    assertThatThrownBy(() -> ShardedCaches.builder().cache("a:b", null))
        .hasMessage("cache name " + tail);
    assertThatThrownBy(() -> ChashConfig.builder().cache(new CacheConfig("a:b", null)))
        .hasMessage("cache name " + tail);
  }

  @Test
  void failoverRules_sameTextFromYamlRecordsAndTheCacheBuilder() {
    String limit = FailoverConfig.FAILURE_LIMIT.problem(0);
    assertThat(problems("nodes: [{ id: a }]\nfailover: { failureLimit: 0 }\n"))
        .containsExactly("chash.yaml:2:27: failover.failureLimit " + limit);
    assertThatThrownBy(
            () ->
                new FailoverConfig(0, Duration.ofSeconds(1), Duration.ofMillis(1), OnRejoin.FLUSH))
        .hasMessage("failover.failureLimit " + limit);
    // the cache builder used to skip the timeout check: a record with a zero timeout cannot exist
    assertThatThrownBy(
            () -> new FailoverConfig(3, Duration.ofSeconds(1), Duration.ZERO, OnRejoin.FLUSH))
        .hasMessage("failover.timeout " + Rules.positive(Duration.ZERO));
  }

  @Test
  void jumpWeightRule_sameTextFromYamlTheConfigBuilderAndTheRing() {
    String tail = Algorithm.JUMP.weightProblem(2);
    assertThat(problems("ring: { algorithm: jump }\nnodes:\n  - { id: a, weight: 2 }\n"))
        .containsExactly("chash.yaml:3:22: nodes[0].weight " + tail);
    assertThatThrownBy(
            () ->
                ChashConfig.builder()
                    .ring(RingSettings.of(Algorithm.JUMP))
                    .node(new NodeConfig("a", NodeType.LOCAL, 2, 10, null))
                    .build())
        .hasMessage("weight of node \"a\" " + tail);
    assertThatThrownBy(
            () ->
                io.github.chash.ring.Rings.create(
                    RingSettings.of(Algorithm.JUMP), List.of(Node.of("a", 2))))
        .hasMessage("weight of node \"a\" " + tail);
  }

  @Test
  void nodeIdRule_refusesInvisibleCharactersEverywhere() {
    String id = "cache\u200B1"; // a zero-width space: prints as "cache1"
    String tail = Node.idProblem(id);
    assertThat(tail)
        .isEqualTo(
            "must contain only visible characters, was \"cache\\u200B1\" (U+200B at index 5)");
    assertThat(problems("nodes:\n  - { id: \"cache\\u200B1\" }\n"))
        .containsExactly("chash.yaml:2:11: nodes[0].id " + tail);
    assertThatThrownBy(() -> NodeConfig.local(id)).hasMessage("node id " + tail);
    assertThatThrownBy(() -> Node.of(id)).hasMessage("node id " + tail);
    assertThat(Node.idProblem("cache 1 (eu-west)")).isNull();
  }

  @Test
  void recordsMadeInCode_areCheckedAsTheFileIs() {
    assertThatThrownBy(() -> new CheckConfig(0.9, 10, "k:{n}", null, null, null, null))
        .hasMessage("check.maxSkew " + CheckConfig.maxSkewProblem(0.9));
    assertThatThrownBy(() -> new RedisConfig("", "jdk", List.of()))
        .hasMessage("redis.keyPrefix " + RedisConfig.keyPrefixProblem(""));
    assertThatThrownBy(() -> new NodeConfig("r", NodeType.REDIS, 1, 0, "redis://u:pw@h"))
        .hasMessage("uri of node \"r\" contains a plain-text password; use ${env:NAME}");
  }

  @Test
  void mergeKeysAndCoreTags_areAccepted() {
    ChashConfig config =
        ChashConfigs.parse(
            "nodes:\n"
                + "  - &local { id: a, type: local, maximumSize: !!int 500 }\n"
                + "  - { <<: *local, id: b }\n"
                + "caches:\n"
                + "  base: &short { ttl: 1m }\n"
                + "  users: { <<: *short }\n"
                + "check: { maxSkew: !!float 1.5 }\n",
            "chash.yaml");
    assertThat(config.nodes())
        .extracting(NodeConfig::id, NodeConfig::maximumSize)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", 500L),
            org.assertj.core.groups.Tuple.tuple("b", 500L));
    assertThat(config.caches().get("users").ttl()).isEqualTo(Duration.ofMinutes(1));
    assertThat(config.check().maxSkew()).isEqualTo(1.5);
    assertThat(problems("nodes: [{ id: !custom a }]\n"))
        .containsExactly("chash.yaml:1:15: tag \"!custom\" is not supported; remove it");
  }

  @Test
  void where_namesTheLineAndColumnOfAParsedValue() {
    ChashConfig config =
        ChashConfigs.parse(
            "nodes:\n  - id: r1\n    type: redis\n    uri: \"redis://:${env:PW}@h:1\"\n",
            "chash.yaml");
    assertThat(config.where("nodes[0].uri")).isEqualTo("chash.yaml:4:10");
    assertThat(config.where("caches.nope")).isEqualTo("chash.yaml");
  }
}
