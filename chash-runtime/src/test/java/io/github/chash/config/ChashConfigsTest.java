package io.github.chash.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.KetamaCompat;
import io.github.chash.ring.Node;
import io.github.chash.ring.Ring;
import io.github.chash.ring.RingSettings;
import io.github.chash.ring.Rings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChashConfigsTest {

  private static final String FULL =
      String.join(
          "\n",
          "ring:",
          "  algorithm: ring",
          "  hash: murmur3",
          "  pointsPerWeight: 500",
          "nodes:",
          "  - id: local-a",
          "    type: local",
          "    weight: 1",
          "    maximumSize: 20000",
          "  - id: cache-1",
          "    type: redis",
          "    uri: redis://127.0.0.1:6380",
          "    weight: 2",
          "  - id: cache-2",
          "    type: redis",
          "    uri: rediss://default:${env:REDIS_PASSWORD}@cache-2.example.com/3",
          "caches:",
          "  users: { ttl: 10m }",
          "  orders: { ttl: 100ms }",
          "  forever:",
          "failover: { failureLimit: 5, retryAfter: 2h, timeout: 30s, onRejoin: keep }",
          "redis:",
          "  keyPrefix: \"app:\"",
          "  codec: jackson",
          "  allow: [com.example.*, com.example.model.**]",
          "check:",
          "  maxSkew: 1.5",
          "  sampleKeys: 2000",
          "  keyPattern: \"users:{n}\"",
          "  baseline: com.example:service:1.2.0",
          "  maxMoved: 0.25",
          "  maxMovedOverIdeal: 1.3",
          "");

  @Test
  void parse_fullFile_givesEveryValue() {
    ChashConfig config = ChashConfigs.parse(FULL, "chash.yaml");

    assertThat(config.source()).isEqualTo("chash.yaml");
    assertThat(config.ring().algorithm()).isEqualTo(Algorithm.RING);
    assertThat(config.ring().hash().name()).isEqualTo("murmur3");
    assertThat(config.ring().pointsPerWeight()).isEqualTo(500);
    assertThat(config.nodes())
        .containsExactly(
            new NodeConfig("local-a", NodeType.LOCAL, 1, 20000, null),
            new NodeConfig("cache-1", NodeType.REDIS, 2, 0, "redis://127.0.0.1:6380"),
            new NodeConfig(
                "cache-2",
                NodeType.REDIS,
                1,
                0,
                "rediss://default:${env:REDIS_PASSWORD}@cache-2.example.com/3"));
    assertThat(config.ringNodes())
        .containsExactly(Node.of("local-a", 1), Node.of("cache-1", 2), Node.of("cache-2", 1));
    assertThat(config.caches().keySet()).containsExactly("users", "orders", "forever");
    assertThat(config.caches().get("users"))
        .isEqualTo(new CacheConfig("users", Duration.ofMinutes(10)));
    assertThat(config.caches().get("orders").ttl()).isEqualTo(Duration.ofMillis(100));
    assertThat(config.caches().get("forever").ttl()).isNull();
    assertThat(config.failover())
        .isEqualTo(
            new FailoverConfig(5, Duration.ofHours(2), Duration.ofSeconds(30), OnRejoin.KEEP));
    assertThat(config.redis())
        .isEqualTo(
            new RedisConfig("app:", "jackson", List.of("com.example.*", "com.example.model.**")));
    assertThat(config.check())
        .isEqualTo(
            new CheckConfig(1.5, 2000, "users:{n}", null, "com.example:service:1.2.0", 0.25, 1.3));
  }

  @Test
  void parse_onlyNodes_givesDefaults() {
    ChashConfig config = ChashConfigs.parse("nodes:\n  - id: a\n", "chash.yaml");

    assertThat(config.ring()).isEqualTo(RingSettings.defaults());
    assertThat(config.ring().hash().name()).isEqualTo("xxh3");
    assertThat(config.ring().pointsPerWeight()).isEqualTo(RingSettings.DEFAULT_RING_POINTS);
    assertThat(config.nodes()).containsExactly(NodeConfig.local("a"));
    assertThat(config.caches()).isEmpty();
    assertThat(config.failover()).isEqualTo(FailoverConfig.defaults());
    assertThat(config.redis()).isEqualTo(RedisConfig.defaults());
    assertThat(config.check()).isEqualTo(CheckConfig.defaults());
  }

  @Test
  void parse_emptyBlocks_giveDefaults() {
    ChashConfig config =
        ChashConfigs.parse(
            "ring:\ncaches:\nfailover:\nredis:\ncheck:\nnodes: [{id: a}]\n", "chash.yaml");

    assertThat(config.ring()).isEqualTo(RingSettings.defaults());
    assertThat(config.failover()).isEqualTo(FailoverConfig.defaults());
    assertThat(config.check()).isEqualTo(CheckConfig.defaults());
  }

  @ParameterizedTest
  @ValueSource(strings = {"ring", "ketama", "maglev", "rendezvous", "jump"})
  void parse_eachAlgorithm_withLocalAndRedisNodes(String algorithm) {
    int weight = algorithm.equals("jump") ? 1 : 3; // jump knows no weights
    String yaml =
        "ring:\n  algorithm: "
            + algorithm
            + "\n"
            + "nodes:\n"
            + "  - { id: local-a, type: local, weight: "
            + weight
            + ", maximumSize: 50 }\n"
            + "  - { id: 'cache-1:6380', type: redis, uri: 'redis://cache-1:6380/0' }\n";

    ChashConfig config = ChashConfigs.parse(yaml, "chash.yaml");

    assertThat(config.ring().algorithm().configName()).isEqualTo(algorithm);
    assertThat(config.ring()).isEqualTo(RingSettings.of(Algorithm.fromConfigName(algorithm)));
    assertThat(config.nodes())
        .containsExactly(
            new NodeConfig("local-a", NodeType.LOCAL, weight, 50, null),
            new NodeConfig("cache-1:6380", NodeType.REDIS, 1, 0, "redis://cache-1:6380/0"));
    Ring ring = Rings.create(config.ring(), config.ringNodes());
    assertThat(ring.locate("users:42").id()).isIn("local-a", "cache-1:6380");
  }

  @Test
  void parse_ketamaWithPointsAndMd5_keepsThem() {
    ChashConfig config =
        ChashConfigs.parse(
            "ring: {algorithm: ketama, hash: md5, pointsPerWeight: 40}\nnodes: [{id: a}]",
            "chash.yaml");

    assertThat(config.ring().hash().name()).isEqualTo("md5");
    assertThat(config.ring().pointsPerWeight()).isEqualTo(40);
  }

  @Test
  void parse_keysFile_keepsIt() {
    ChashConfig config =
        ChashConfigs.parse("nodes: [{id: a}]\ncheck: {keysFile: keys.txt}", "chash.yaml");

    assertThat(config.check().keysFile()).isEqualTo("keys.txt");
  }

  @Test
  void load_file_namesItInMessages(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("chash.yaml");
    Files.writeString(file, "nodes:\n  - id: a\n    weight: -1\n");

    assertThat(ConfigTesting.problems(() -> ChashConfigs.load(file)))
        .containsExactly("chash.yaml:3:13: nodes[0].weight must be a positive integer, was -1");
  }

  @Test
  void load_withSourceName_usesItInMessages(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("chash.yaml");
    Files.writeString(file, "nodes: []\n");

    assertThat(
            ConfigTesting.problems(() -> ChashConfigs.load(file, "src/main/resources/chash.yaml")))
        .containsExactly("src/main/resources/chash.yaml:1:8: nodes must list at least one node");
  }

  @Test
  void parse_designDocumentExample() {
    String yaml =
        String.join(
            "\n",
            "ring:",
            "  algorithm: ring          # ring | ketama | maglev | rendezvous | jump",
            "  hash: xxh3               # xxh3 | murmur3 | fnv1a64 | md5 | fnv1-32 | jdk",
            "  pointsPerWeight: 1000    # ring/ketama only",
            "nodes:",
            "  - id: local-a            # unique; also the name virtual points are derived from",
            "    type: local            # local (Caffeine shard) | redis",
            "    weight: 1",
            "    maximumSize: 10000",
            "  - id: cache-1",
            "    type: redis",
            "    uri: redis://127.0.0.1:6380       # rediss:// for TLS; secrets only as"
                + " ${env:NAME}",
            "    weight: 2",
            "caches:",
            "  users: { ttl: 10m }",
            "failover: { failureLimit: 3, retryAfter: 30s, timeout: 100ms, onRejoin: flush }",
            "check:",
            "  maxSkew: 1.20            # largest node share / its fair share (weight / total"
                + " weight)",
            "  sampleKeys: 1000000",
            "  keyPattern: \"users:{n}\"  # synthetic sample keys; or keysFile: keys.txt (one real"
                + " key a line)",
            "");

    ChashConfig config = ChashConfigs.parse(yaml, "chash.yaml");

    assertThat(config.ring()).isEqualTo(RingSettings.defaults());
    assertThat(config.nodes())
        .containsExactly(
            NodeConfig.local("local-a"),
            new NodeConfig("cache-1", NodeType.REDIS, 2, 0, "redis://127.0.0.1:6380"));
    // the example names flush, the default until issue 42 made keep the default
    assertThat(config.failover())
        .isEqualTo(
            new FailoverConfig(3, Duration.ofSeconds(30), Duration.ofMillis(100), OnRejoin.FLUSH));
    assertThat(config.check())
        .isEqualTo(new CheckConfig(1.2, 1_000_000, "users:{n}", null, null, null, null));
  }

  @ParameterizedTest
  @ValueSource(strings = {"xxh3", "murmur3", "fnv1a64", "md5", "fnv1-32", "jdk"})
  void parse_eachHash(String hash) {
    ChashConfig config =
        ChashConfigs.parse("ring: {hash: " + hash + "}\nnodes: [{id: a}]", "chash.yaml");

    assertThat(config.ring().hash().name()).isEqualTo(hash);
  }

  @Test
  void parse_thousandNodes_keepsFileOrder() {
    StringBuilder yaml = new StringBuilder("nodes:\n");
    for (int i = 0; i < 1000; i++) {
      yaml.append("  - {id: node-").append(i).append(", weight: ").append(1 + i % 3).append("}\n");
    }

    ChashConfig config = ChashConfigs.parse(yaml.toString(), "chash.yaml");

    assertThat(config.nodes()).hasSize(1000);
    assertThat(config.nodes().get(999))
        .isEqualTo(new NodeConfig("node-999", NodeType.LOCAL, 1, 10_000, null));
  }

  @Test
  void configException_messageListsEveryProblemOnItsOwnLine() {
    ConfigException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            ConfigException.class,
            () -> ChashConfigs.parse("nodes: [{id: a, weight: 0}, {id: a}]\n", "chash.yaml"));

    assertThat(e.getMessage())
        .isEqualTo(
            "chash.yaml:1:25: nodes[0].weight must be a positive integer, was 0\n"
                + "chash.yaml:1:34: nodes[1].id \"a\" is already used by nodes[0]");
  }

  @Test
  void load_validFile_parses(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("chash.yaml");
    Files.write(file, ("\uFEFF" + FULL).getBytes(StandardCharsets.UTF_8));

    assertThat(ChashConfigs.load(file)).isEqualTo(ChashConfigs.parse(FULL, "chash.yaml"));
  }

  @Test
  void load_missingFile_isConfigException(@TempDir Path dir) {
    assertThat(ConfigTesting.problems(() -> ChashConfigs.load(dir.resolve("nope.yaml"))))
        .singleElement()
        .asString()
        .startsWith("nope.yaml:1:1: file not found: ");
  }

  @Test
  void load_directoryInsteadOfFile_saysItIsADirectory(@TempDir Path dir) throws Exception {
    Path folder = Files.createDirectory(dir.resolve("chash.yaml"));

    assertThat(ConfigTesting.problems(() -> ChashConfigs.load(folder)))
        .singleElement()
        .asString()
        .isEqualTo("chash.yaml:1:1: expected a file but found a directory: " + folder);
  }

  @Test
  void loadFromClasspath_readsTestResource() {
    ChashConfig config = ChashConfigs.loadFromClasspath();

    assertThat(config.source()).isEqualTo("chash.yaml");
    assertThat(config.nodes()).extracting(NodeConfig::id).containsExactly("from-classpath");
  }

  @Test
  void parse_compatKeyTagsAndNames_reachTheRing() {
    ChashConfig twemproxy =
        ChashConfigs.parse(
            "ring: { algorithm: ketama, compat: twemproxy }\n"
                + "nodes:\n"
                + "  - { id: \"10.0.0.1:11211\" }\n"
                + "  - { id: cache-2, name: \"10.0.0.2:6380\", weight: 2 }\n",
            "chash.yaml");
    assertThat(twemproxy.ring().compat()).isEqualTo(KetamaCompat.TWEMPROXY);
    assertThat(twemproxy.ringNodes())
        .containsExactly(Node.of("10.0.0.1:11211"), Node.of("cache-2", 2, "10.0.0.2:6380"));
    ChashConfig jedis =
        ChashConfigs.parse(
            "ring: { algorithm: jedis, keyTags: true }\nnodes: [{id: b}, {id: a, name: s}]\n",
            "chash.yaml");
    assertThat(jedis.ring().keyTags()).isTrue();
    assertThat(jedis.ring().pointsPerWeight()).isEqualTo(160);
    assertThat(Rings.create(jedis.ring(), jedis.ringNodes()).nodes())
        .as("config order kept")
        .extracting(Node::id)
        .containsExactly("b", "a");
  }
}
