package io.github.chash.config;

import static io.github.chash.config.ConfigTesting.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code type: memcached} nodes and the {@code memcached:} block: values, rules, positions. */
class MemcachedConfigTest {

  @Test
  void parse_memcachedNodesAndBlock() {
    ChashConfig config =
        ChashConfigs.parse(
            String.join(
                "\n",
                "nodes:",
                "  - { id: m1, type: memcached, uri: memcached://127.0.0.1:11211 }",
                "  - { id: m2, type: memcached, uri: 'memcached://cache-2' }",
                "  - { id: r1, type: redis, uri: redis://127.0.0.1:11211 }",
                "memcached: { keyPrefix: 'app:', codec: jackson, maxValueSize: 512KB,"
                    + " allow: [com.example.*] }",
                ""),
            "chash.yaml");
    assertThat(config.nodes())
        .extracting(NodeConfig::type)
        .containsExactly(NodeType.MEMCACHED, NodeType.MEMCACHED, NodeType.REDIS);
    assertThat(config.memcached())
        .isEqualTo(new MemcachedConfig("app:", "jackson", List.of("com.example.*"), 512 << 10));
    assertThat(ChashConfigs.parse("nodes: [{ id: a }]\n", "chash.yaml").memcached())
        .isEqualTo(MemcachedConfig.defaults());
  }

  @Test
  void parse_badMemcachedValues_reportFileLineAndColumn() {
    String yaml =
        String.join(
            "\n",
            "nodes:",
            "  - { id: m1, type: memcached }", // 2
            "  - { id: m2, type: memcached, uri: 'redis://x' }",
            "  - { id: m3, type: memcached, uri: 'memcached://u:${env:P}@x' }",
            "  - { id: m4, type: memcached, uri: 'memcached://x:70000/0' }", // 5
            "  - { id: m5, type: memcached, uri: 'memcached://h:11211' }",
            "  - { id: m6, type: memcached, uri: 'memcached://H' }",
            "  - { id: m7, type: memcached, uri: 'memcached://h', maximumSize: 5 }",
            "memcached:",
            "  keyPrefix: 'has space'", // 10
            "  codec: kryo",
            "  maxValueSize: 2GB",
            "  allow: ['*']",
            "  timeout: 1s",
            "");
    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:2:5: nodes[0] is missing required key \"uri\", required for type memcached",
            "chash.yaml:3:37: nodes[1].uri must start with memcached://, was \"redis://x\"",
            "chash.yaml:4:37: nodes[2].uri must not have credentials: memcached nodes do not support"
                + " SASL",
            "chash.yaml:5:37: nodes[3].uri must not have a path, was \"/0\"",
            "chash.yaml:5:37: nodes[3].uri port must be between 1 and 65535, was \"70000\"",
            "chash.yaml:7:37: nodes[5].uri points to the same server as nodes[4]"
                + " (memcached:h:11211)",
            "chash.yaml:8:37: nodes[6].uri points to the same server as nodes[4]"
                + " (memcached:h:11211)",
            "chash.yaml:8:67: nodes[6].maximumSize is only valid for type local; a memcached server"
                + " bounds its memory itself (-m)",
            "chash.yaml:10:14: memcached.keyPrefix must be printable ASCII without spaces (a"
                + " memcached key cannot hold spaces or control characters), was \"has space\"",
            "chash.yaml:11:10: memcached.codec must be one of jdk, jackson; was \"kryo\"",
            "chash.yaml:12:17: memcached.maxValueSize must be between 1B and 1GB, was \"2GB\"",
            "chash.yaml:13:11: memcached.allow[0] allows every class, was \"*\"; name packages"
                + " (com.example.*) or classes",
            "chash.yaml:14:3: unknown key \"timeout\" in memcached; valid keys: keyPrefix, codec,"
                + " allow, maxValueSize");
  }

  @Test
  void records_applyTheSameRules() {
    assertThatThrownBy(() -> NodeConfig.memcached("m", "memcached://h/db"))
        .hasMessage("uri of node \"m\" must not have a path, was \"/db\"");
    assertThatThrownBy(() -> new MemcachedConfig("k".repeat(65), "jdk", List.of(), 1))
        .hasMessageStartingWith("memcached.keyPrefix must be at most 64 characters");
    assertThatThrownBy(
            () ->
                ChashConfig.builder()
                    .node(NodeConfig.memcached("a", "memcached://h"))
                    .node(NodeConfig.memcached("b", "memcached://H:11211")))
        .hasMessage(
            "uri of node \"b\" points to the same server as node \"a\" (memcached:h:11211)");
    ChashConfig.builder()
        .node(NodeConfig.memcached("a", "memcached://h:6379"))
        .node(NodeConfig.redis("b", "redis://h:6379"))
        .build(); // a Redis and a memcached server are never the same server
  }

  @Test
  void address_resolvesPlaceholdersAndTheDefaultPort() {
    assertThat(MemcachedUris.address("memcached://${env:H}", name -> "10.0.0.1").getPort())
        .isEqualTo(11211);
    assertThat(MemcachedUris.address("memcached://h:${env:P}", name -> "12345").getHostString())
        .isEqualTo("h");
  }
}
