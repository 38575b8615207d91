package io.github.chash.config;

import static io.github.chash.config.ConfigTesting.problems;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The exact text of every check; the docs site quotes these messages. */
class ConfigMessagesTest {

  @Test
  void parse_allProblemsOfAFile_reportedAtOnceInFileOrder() {
    String yaml =
        String.join(
            "\n",
            "ring:",
            "  algorithm: ketma",
            "nodes:",
            "  - id: a",
            "    wieght: 2",
            "  - id: b",
            "    weight: -1",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:2:14: ring.algorithm must be one of ring, ketama, maglev, rendezvous, jump,"
                + " jedis; was \"ketma\"",
            "chash.yaml:5:5: unknown key \"wieght\" in nodes[0]; valid keys: id, type, weight,"
                + " maximumSize, uri, name, readFrom, replicaLag; did you mean \"weight\"?",
            "chash.yaml:7:13: nodes[1].weight must be a positive integer, was -1");
  }

  @Test
  void parse_emptyFile() {
    assertThat(problems(""))
        .containsExactly("chash.yaml:1:1: file is empty; expected a mapping with at least `nodes`");
    assertThat(problems("# only a comment\n"))
        .containsExactly("chash.yaml:1:1: file is empty; expected a mapping with at least `nodes`");
  }

  @Test
  void parse_topLevelNotAMapping() {
    assertThat(problems("- id: a\n"))
        .containsExactly(
            "chash.yaml:1:1: the top level must be a mapping with at least `nodes`, was a list");
  }

  @Test
  void parse_missingNodes() {
    assertThat(problems("ring:\n  algorithm: ring\n"))
        .containsExactly("chash.yaml:1:1: missing required key \"nodes\" at the top level");
  }

  @Test
  void parse_unknownTopLevelKey_suggestsTheIntendedOne() {
    assertThat(problems("nodes: [{id: a}]\nfailvoer: {}\nzzz: 1\n"))
        .containsExactly(
            "chash.yaml:2:1: unknown key \"failvoer\" at the top level; valid keys: ring, nodes,"
                + " caches, failover, migration, redis, memcached, check; did you mean \"failover\"?",
            "chash.yaml:3:1: unknown key \"zzz\" at the top level; valid keys: ring, nodes,"
                + " caches, failover, migration, redis, memcached, check");
  }

  @Test
  void parse_tabIndentation_saysSoInLowerCaseWithoutSnakeYamlsEscapes() {
    assertThat(problems("nodes:\n\t- id: a\n"))
        .containsExactly(
            "chash.yaml:2:1: invalid YAML: a tab cannot start a token here (tabs cannot indent"
                + " YAML); indent with spaces");
  }

  @Test
  void parse_nodeIdWithALineBreak_isRejectedWithTheIdEscaped() {
    assertThat(problems("nodes:\n  - id: \"cache\\n1\"\n  - id: \"b\\tc\"\n"))
        .containsExactly(
            "chash.yaml:2:9: nodes[0].id must contain only visible characters, was \"cache\\n1\""
                + " (U+000A at index 5)",
            "chash.yaml:3:9: nodes[1].id must contain only visible characters, was \"b\\tc\""
                + " (U+0009 at index 1)");
  }

  @Test
  void parse_duplicateKey() {
    assertThat(problems("nodes: [{id: a}]\nring: {hash: xxh3, hash: md5}\n"))
        .containsExactly("chash.yaml:2:20: duplicate key \"hash\" in ring; first at line 2");
  }

  @Test
  void parse_yamlSyntaxErrors_keepSnakeYamlsExplanation() {
    assertThat(problems("nodes: [{id: \"a}]\n"))
        .containsExactly(
            "chash.yaml:2:1: invalid YAML: while scanning a quoted scalar: found unexpected end of"
                + " stream");
    assertThat(problems("nodes:\n  - id: a\n   weight: 1\n"))
        .containsExactly(
            "chash.yaml:3:4: invalid YAML: while parsing a block collection: expected <block end>,"
                + " but found '<block mapping start>'");
    assertThat(problems("nodes: [{id: a}]\nx: \"\u0000\"\n"))
        .containsExactly("chash.yaml:2:5: invalid YAML: character U+0000 is not allowed");
    assertThat(problems("%YAML 9.9\n---\nnodes: []\n"))
        .containsExactly(
            "chash.yaml:1:1: invalid YAML: version 9.9 is not supported; omit %YAML or use 1.2");
  }

  @Test
  void parse_nullSpellings_areEmpty() {
    assertThat(problems("nodes: [{id: ~}, {id: null}, {id: }]\n"))
        .containsExactly(
            "chash.yaml:1:14: nodes[0].id must be a non-empty string, was empty",
            "chash.yaml:1:23: nodes[1].id must be a non-empty string, was empty",
            "chash.yaml:1:34: nodes[2].id must be a non-empty string, was empty");
  }

  @Test
  void parse_explicitTag() {
    assertThat(problems("nodes: [{id: a}]\nring: !!python/object:os.system {}\n"))
        .containsExactly(
            "chash.yaml:2:7: tag \"!!python/object:os.system\" is not supported; remove it");
    assertThat(problems("nodes: [{id: !custom a}]\n"))
        .containsExactly("chash.yaml:1:14: tag \"!custom\" is not supported; remove it");
  }

  @Test
  void parse_nonScalarKey() {
    assertThat(problems("nodes: [{id: a}]\n? [x]\n: 1\n"))
        .containsExactly("chash.yaml:2:3: keys must be names, was a list in the top level");
  }

  @Test
  void parse_ringChecks() {
    assertThat(problems("nodes: [{id: a}]\nring: {hash: sha1, pointsPerWeight: 0}\n"))
        .containsExactly(
            "chash.yaml:2:14: ring.hash must be one of xxh3, murmur3, fnv1a64, md5, fnv1-32, jdk;"
                + " was \"sha1\"",
            "chash.yaml:2:37: ring.pointsPerWeight must be an integer between 1 and 10000, was 0");
    assertThat(problems("nodes: [{id: a}]\nring: {pointsPerWeight: 10001}\n"))
        .containsExactly(
            "chash.yaml:2:25: ring.pointsPerWeight must be an integer between 1 and 10000, was"
                + " 10001");
    assertThat(problems("nodes: [{id: a}]\nring: {algorithm: ketama, hash: xxh3}\n"))
        .containsExactly(
            "chash.yaml:2:33: ring.hash must be md5 for algorithm ketama (libketama hashes with"
                + " MD5), was \"xxh3\"");
    assertThat(problems("nodes: [{id: a}]\nring: {algorithm: maglev, pointsPerWeight: 100}\n"))
        .containsExactly(
            "chash.yaml:2:44: ring.pointsPerWeight applies only to algorithms ring and ketama;"
                + " remove it for maglev");
    assertThat(problems("nodes: [{id: a}]\nring: [ring]\n"))
        .containsExactly("chash.yaml:2:7: ring must be a mapping, was a list");
  }

  @Test
  void parse_aTypeOfOnesOwn_isAcceptedWithItsUri_andOnlyNearMissesOfChashsOwnAreRefused() {
    ChashConfig config =
        ChashConfigs.parse(
            String.join(
                "\n",
                "nodes:",
                "  - id: a",
                "    type: hazelcast",
                "    uri: hz://cluster-1?members=3",
                "  - id: b",
                "    type: valkey-glide",
                ""),
            "chash.yaml");
    assertThat(config.nodes())
        .extracting(NodeConfig::type, NodeConfig::uri)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                NodeType.of("hazelcast"), "hz://cluster-1?members=3"),
            org.assertj.core.groups.Tuple.tuple(NodeType.of("valkey-glide"), null));

    String yaml =
        String.join(
            "\n",
            "nodes:",
            "  - id: a",
            "    type: Redis", // 3
            "  - id: b",
            "    type: rediss", // 5
            "  - id: c",
            "    type: Hazel_Cast", // 7
            "  - id: d",
            "    type: hazelcast",
            "    maximumSize: 10", // 10
            "  - id: e",
            "    type: hazelcast",
            "    readFrom: replicaPreferred", // 13
            "");
    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:11: nodes[0].type is not one of chash's own types (local, redis,"
                + " memcached), was \"Redis\"; did you mean \"redis\"? (a type of one's own needs a"
                + " name further from theirs)",
            "chash.yaml:5:11: nodes[1].type is not one of chash's own types (local, redis,"
                + " memcached), was \"rediss\"; did you mean \"redis\"? (a type of one's own needs"
                + " a name further from theirs)",
            "chash.yaml:7:11: nodes[2].type must be lowercase letters, digits and '-', starting"
                + " with a letter (at most 64), was \"Hazel_Cast\" (chash's own types: local, redis,"
                + " memcached)",
            "chash.yaml:10:18: nodes[3].maximumSize is only valid for type local",
            "chash.yaml:13:15: nodes[4].readFrom is replicaPreferred, which needs a"
                + " Sentinel-managed shard (type redis, uri redis-sentinel://...#master); a plain"
                + " server has no replicas to read from");
  }

  @Test
  void parse_nodeChecks() {
    String yaml =
        String.join(
            "\n",
            "nodes:",
            "  - id: a",
            "  - id: a", // 3
            "  - id: b",
            "    type: memcache", // 5
            "  - id: c",
            "    weight: 1.5", // 7
            "  - id: d",
            "    maximumSize: 0", // 9
            "  - weight: 2", // 10
            "  - id: e",
            "    uri: redis://x", // 12
            "  - id: f",
            "    type: redis", // 14
            "  - id: g",
            "    type: redis",
            "    maximumSize: 10", // 17
            "    uri: redis://g",
            "  - id: ''", // 19
            "  -", // 20
            "  - plain", // 21
            "  - id: ' h'", // 22
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:9: nodes[1].id \"a\" is already used by nodes[0]",
            "chash.yaml:5:11: nodes[2].type is not one of chash's own types (local, redis,"
                + " memcached), was \"memcache\"; did you mean \"memcached\"? (a type of one's own"
                + " needs a name further from theirs)",
            "chash.yaml:7:13: nodes[3].weight must be a positive integer, was 1.5",
            "chash.yaml:9:18: nodes[4].maximumSize must be a positive integer, was 0",
            "chash.yaml:10:5: nodes[5] is missing required key \"id\"",
            "chash.yaml:12:10: nodes[6].uri is only valid for types redis and memcached; add"
                + " `type: redis` or remove uri",
            "chash.yaml:13:5: nodes[7] is missing required key \"uri\", required for type redis",
            "chash.yaml:17:18: nodes[8].maximumSize is only valid for type local; a Redis server"
                + " bounds its memory itself (maxmemory)",
            "chash.yaml:19:9: nodes[9].id must be a non-empty string, was \"\"",
            "chash.yaml:20:4: nodes[10] must be a mapping with at least `id`, was empty",
            "chash.yaml:21:5: nodes[11] must be a mapping, was \"plain\"",
            "chash.yaml:22:9: nodes[12].id must not start or end with white space, was \" h\"");
  }

  @Test
  void parse_jumpWithWeights() {
    assertThat(problems("ring: {algorithm: jump}\nnodes: [{id: a}, {id: b, weight: 2}]\n"))
        .containsExactly(
            "chash.yaml:2:34: nodes[1].weight must be 1 for algorithm jump (jump knows buckets, not"
                + " weights), was 2");
  }

  @Test
  void parse_tooManyVirtualPoints() {
    assertThat(problems("ring: {pointsPerWeight: 10000}\nnodes: [{id: a, weight: 3201}]\n"))
        .containsExactly(
            "chash.yaml:2:8: the ring would need 32010000 virtual points (sum of weights x"
                + " pointsPerWeight); at most 32000000 are allowed: lower ring.pointsPerWeight or"
                + " the weights");
    assertThat(
            ChashConfigs.parse(
                    "ring: {pointsPerWeight: 10000}\nnodes: [{id: a, weight: 3200}]\n",
                    "chash.yaml")
                .nodes())
        .hasSize(1);
  }

  @Test
  void parse_nodesWrongShape() {
    assertThat(problems("nodes: {id: a}\n"))
        .containsExactly("chash.yaml:1:8: nodes must be a list of nodes, was a mapping");
    assertThat(problems("nodes: []\n"))
        .containsExactly("chash.yaml:1:8: nodes must list at least one node");
  }

  @Test
  void parse_uriChecks() {
    String yaml =
        String.join(
            "\n",
            "nodes:",
            "  - {id: a, type: redis, uri: 'http://x:1'}",
            "  - {id: b, type: redis, uri: 'redis://user:hunter2@x:1'}",
            "  - {id: c, type: redis, uri: 'redis://hunter2@x:2'}",
            "  - {id: d, type: redis, uri: 'redis://x:70000'}",
            "  - {id: e, type: redis, uri: 'redis://x:3/zero'}",
            "  - {id: f, type: redis, uri: 'redis://:6379'}",
            "  - {id: g, type: redis, uri: 'redis://x:4?timeout=1s'}",
            "  - {id: h, type: redis, uri: 'redis://${env:PW@x:5'}",
            "  - {id: i, type: redis, uri: 'redis://bad_host!:5'}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:2:31: nodes[0].uri must start with redis://, rediss:// or"
                + " redis-sentinel://, was \"http://x:1\"",
            "chash.yaml:3:31: nodes[1].uri contains a plain-text password; use ${env:NAME}",
            "chash.yaml:4:31: nodes[2].uri contains a plain-text password; use ${env:NAME}",
            "chash.yaml:5:31: nodes[3].uri port must be between 1 and 65535, was \"70000\"",
            "chash.yaml:6:31: nodes[4].uri database must be a non-negative integer (like /0), was"
                + " \"zero\"",
            "chash.yaml:7:31: nodes[5].uri has no host",
            "chash.yaml:8:31: nodes[6].uri must not have a query or fragment, was \"?timeout=1s\";"
                + " timeouts belong under failover",
            "chash.yaml:9:31: nodes[7].uri contains a malformed placeholder; use ${env:NAME}",
            "chash.yaml:10:31: nodes[8].uri has an invalid host \"bad_host!\"");
    assertThat(String.join("\n", problems(yaml))).doesNotContain("hunter2");
  }

  @Test
  void parse_aPlainTextPasswordIsRefusedInTheUriOfEveryType_withoutRepeatingIt() {
    String yaml =
        String.join(
            "\n",
            "nodes:",
            "  - {id: a, type: hazelcast, uri: 'hz://admin:hunter2@cluster-1'}",
            "  - {id: b, type: hazelcast, uri: 'hz://cluster-2?members=3&Password=hunter2'}",
            "  - {id: c, type: valkey-glide, uri: 'user:hunter2@glide-1:6379'}",
            "  - {id: d, type: redis, uri: 'redis://x:1?password=hunter2'}",
            "  - {id: e, type: hazelcast, uri: 'hz://admin:${env:HZ_PASSWORD}@cluster-3'}",
            "  - {id: f, type: hazelcast, uri: 'hz://admin@cluster-4?password=${env:HZ_PW}'}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:2:35: nodes[0].uri contains a plain-text password; use ${env:NAME}",
            "chash.yaml:3:35: nodes[1].uri contains a plain-text password (query parameter"
                + " \"Password\"); use ${env:NAME}",
            "chash.yaml:4:38: nodes[2].uri contains a plain-text password; use ${env:NAME}",
            "chash.yaml:5:31: nodes[3].uri must not have a query or fragment, was"
                + " \"?password=****\"; timeouts belong under failover",
            "chash.yaml:5:31: nodes[3].uri contains a plain-text password (query parameter"
                + " \"password\"); use ${env:NAME}");
    assertThat(String.join("\n", problems(yaml))).doesNotContain("hunter2");
    // a record made in code gets the same rule, in the same words
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new NodeConfig("a", NodeType.of("hazelcast"), 1, 0, "hz://u:hunter2@h"))
        .hasMessage("uri of node \"a\" contains a plain-text password; use ${env:NAME}");
  }

  @Test
  void masked_hidesEveryPasswordAURIMayCarry_andKeepsPlaceholders() {
    // what toString prints of a node's uri; the rule above keeps such a uri out of a NodeConfig,
    // the masking does not rely on it
    assertThat(
            java.util.stream.Stream.of(
                    "redis://:hunter2@cache-1:6379",
                    "redis://default:hunter2@cache-1",
                    "redis://hunter2@cache-1/2",
                    "hz://cluster?members=3&password=hunter2#x",
                    "hz://admin:hunter2@cluster?PWD=hunter2",
                    "redis://:${env:REDIS_PASSWORD}@cache-1",
                    "hz://cluster?password=${env:HZ_PW}",
                    "memcached://cache-1:11211")
                .map(ServerUris::masked))
        .containsExactly(
            "redis://:****@cache-1:6379",
            "redis://default:****@cache-1",
            "redis://****@cache-1/2",
            "hz://cluster?members=3&password=****#x",
            "hz://admin:****@cluster?PWD=****",
            "redis://:${env:REDIS_PASSWORD}@cache-1",
            "hz://cluster?password=${env:HZ_PW}",
            "memcached://cache-1:11211");
  }

  @Test
  void toString_ofANodeAndOfTheConfig_printsTheUriMasked() {
    NodeConfig node = NodeConfig.redis("a", "redis://default:${env:PW}@cache-1:6379/1");
    ChashConfig config = ChashConfig.builder().node(node).node(NodeConfig.local("b")).build();

    assertThat(node.toString())
        .isEqualTo(
            "NodeConfig[id=a, type=redis, weight=1, maximumSize=0,"
                + " uri=redis://default:${env:PW}@cache-1:6379/1, name=null, readFrom=PRIMARY,"
                + " replicaLag=PT1S]");
    assertThat(config.toString()).contains(node.toString(), "uri=null");
  }

  @Test
  void parse_sentinelUriChecks() {
    String yaml =
        String.join(
            "\n",
            "nodes:",
            "  - {id: a, type: redis, uri: 'redis-sentinel://s1:26379,s2:26379,s3:26379/0'}",
            "  - {id: b, type: redis, uri: 'redis-sentinel://s1,s2/0#'}",
            "  - {id: c, type: redis, uri: 'redis-sentinel://s1,,s2/0#shard-c'}",
            "  - {id: d, type: redis, uri: 'redis-sentinel://s1:26379,s2:70000#shard-d'}",
            "  - {id: e, type: redis, uri: 'redis-sentinel://s1,S1:26379#shard-e'}",
            "  - {id: f, type: redis, uri: 'redis-sentinel://s1#shard f'}",
            "  - {id: g, type: redis, uri: 'redis-sentinel://:hunter2@s1,s2#shard-g'}",
            "  - {id: h, type: redis, uri: 'redis-sentinel://s1,s2/zero#shard-h'}",
            "  - {id: i, type: redis, uri: 'redis-sentinel://s1,s2?timeout=1s'}",
            "  - {id: j, type: redis, uri: 'redis-sentinel://s1,bad_host!#shard-j'}",
            "  - {id: k, type: redis, uri: 'redis-sentinel://#shard-k'}",
            "  - {id: l, type: redis, uri: 'rediss-sentinel://s1#shard-l'}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:2:31: nodes[0].uri must name the Sentinel master after '#', like"
                + " redis-sentinel://s1:26379,s2:26379,s3:26379/0#shard-a",
            "chash.yaml:3:31: nodes[1].uri must name the Sentinel master after '#', like"
                + " redis-sentinel://s1:26379,s2:26379,s3:26379/0#shard-a",
            "chash.yaml:4:31: nodes[2].uri has an empty entry in its sentinel list (sentinel 2 of"
                + " 3); separate sentinels by a single ','",
            "chash.yaml:5:31: nodes[3].uri port must be between 1 and 65535, was \"70000\"",
            "chash.yaml:6:31: nodes[4].uri lists sentinel s1:26379 twice",
            "chash.yaml:7:31: nodes[5].uri has an invalid Sentinel master name \"shard f\"; use"
                + " letters, digits, '.', '_' and '-'",
            "chash.yaml:8:31: nodes[6].uri contains a plain-text password; use ${env:NAME}",
            "chash.yaml:9:31: nodes[7].uri database must be a non-negative integer (like /0), was"
                + " \"zero\"",
            "chash.yaml:10:31: nodes[8].uri must not have a query, was \"?timeout=1s\"",
            "chash.yaml:11:31: nodes[9].uri has an invalid host \"bad_host!\"",
            "chash.yaml:12:31: nodes[10].uri has no host",
            "chash.yaml:13:31: nodes[11].uri must start with redis://, rediss:// or"
                + " redis-sentinel://, was \"rediss-sentinel://s1#shard-l\"");
    assertThat(String.join("\n", problems(yaml))).doesNotContain("hunter2");
  }

  @Test
  void parse_readFrom_replicasOnlyOfASentinelShard_andTheLagOnlyWithThem() {
    String shard = "uri: 'redis-sentinel://s1,s2,s3/0#shard-";
    String yaml =
        String.join(
            "\n",
            "nodes:",
            "  - {id: a, type: redis, " + shard + "a', readFrom: replicaPreferred}",
            "  - {id: b, type: redis, " + shard + "b', readFrom: replicaPreferred, replicaLag: 2s}",
            "  - {id: c, type: redis, uri: 'redis://c:6379', readFrom: replicaPreferred}",
            "  - {id: d, type: redis, " + shard + "d', readFrom: replica}",
            "  - {id: e, type: redis, " + shard + "e', replicaLag: 2s}",
            "  - {id: f, readFrom: replicaPreferred}",
            "  - {id: g, type: redis, " + shard + "g', readFrom: replicaPreferred, replicaLag: 0s}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:4:59: nodes[2].readFrom is replicaPreferred, which needs a"
                + " Sentinel-managed shard (type redis, uri redis-sentinel://...#master); a plain"
                + " server has no replicas to read from",
            "chash.yaml:5:80: nodes[3].readFrom must be one of primary, replicaPreferred; was"
                + " \"replica\"",
            "chash.yaml:6:82: nodes[4].replicaLag is only valid with readFrom: replicaPreferred",
            "chash.yaml:7:23: nodes[5].readFrom is replicaPreferred, which needs a"
                + " Sentinel-managed shard (type redis, uri redis-sentinel://...#master); a plain"
                + " server has no replicas to read from",
            "chash.yaml:8:110: nodes[6].replicaLag must be positive, was \"0s\"");
  }

  @Test
  void parse_promotionWait_zeroOrMore_andOnlyWithASentinelShard() {
    String shard = "  - {id: a, type: redis, uri: 'redis-sentinel://s1,s2,s3/0#shard-a'}\n";
    String plain = "  - {id: b, type: redis, uri: 'redis://b:6379'}\n";
    assertThat(
            ChashConfigs.parse(
                    "nodes:\n" + shard + plain + "failover: { promotionWait: 30s }\n", "chash.yaml")
                .failover()
                .promotionWait())
        .isEqualTo(java.time.Duration.ofSeconds(30));
    assertThat(
            ChashConfigs.parse(
                    "nodes:\n" + shard + "failover: { promotionWait: 0s }\n", "chash.yaml")
                .failover()
                .promotionWait())
        .isZero();
    assertThat(ChashConfigs.parse("nodes:\n" + shard, "chash.yaml").failover().promotionWait())
        .isEqualTo(FailoverConfig.DEFAULT_PROMOTION_WAIT)
        .isEqualTo(java.time.Duration.ofSeconds(10));

    assertThat(problems("nodes:\n" + shard + "failover: { promotionWait: -1s }\n"))
        .containsExactly(
            "chash.yaml:3:28: failover.promotionWait must be a duration like 100ms, 30s, 10m, 2h"
                + " or 1d, was \"-1s\"");
    assertThat(problems("nodes:\n" + plain + "  - {id: c}\nfailover: { promotionWait: 5s }\n"))
        .containsExactly(
            "chash.yaml:4:28: failover.promotionWait applies only to Sentinel-managed shards"
                + " (type redis, uri redis-sentinel://...#master), and no node is one; remove it:"
                + " every other node is ejected after failureLimit failures alone");
    // a node with problems of its own might be the shard: only its problems are reported
    assertThat(
            problems(
                "nodes:\n"
                    + "  - {id: a, type: redis, uri: 'redis-sentinel://s1/0'}\n"
                    + "failover: { promotionWait: 5s }\n"))
        .containsExactly(
            "chash.yaml:2:31: nodes[0].uri must name the Sentinel master after '#', like"
                + " redis-sentinel://s1:26379,s2:26379,s3:26379/0#shard-a");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> FailoverConfig.defaults().withPromotionWait(java.time.Duration.ofSeconds(-1)))
        .hasMessage("failover.promotionWait must not be negative, was PT-1S");
  }

  @Test
  void readFrom_recordRule_andDefaults() {
    NodeConfig plain = NodeConfig.redis("a", "redis-sentinel://s1/0#shard-a");
    assertThat(plain.readFrom()).isEqualTo(ReadFrom.PRIMARY);
    assertThat(plain.replicaLag()).isEqualTo(NodeConfig.DEFAULT_REPLICA_LAG);
    assertThat(plain.withReadFrom(ReadFrom.REPLICA_PREFERRED, null).replicaLag())
        .isEqualTo(java.time.Duration.ofSeconds(1));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> NodeConfig.redis("c", "redis://c").withReadFrom(ReadFrom.REPLICA_PREFERRED, null))
        .hasMessage(
            "readFrom of node \"c\" is replicaPreferred, which needs a Sentinel-managed shard"
                + " (type redis, uri redis-sentinel://...#master); a plain server has no replicas"
                + " to read from");
  }

  @Test
  void parse_sentinelShards_sameSentinelsOtherMasters_areDistinct() {
    String yaml =
        String.join(
            "\n",
            "nodes:",
            "  - {id: a, type: redis, uri: 'redis-sentinel://s1:26379,s2,s3/0#shard-a'}",
            "  - {id: b, type: redis, uri: 'redis-sentinel://s1,s2,s3/0#shard-b'}",
            "  - {id: c, type: redis, uri: 'redis-sentinel://S3,s2:26379,s1/0#shard-a'}",
            "  - {id: d, type: redis, uri: 'redis-sentinel://s1,s2,s3/1#shard-a'}",
            "  - {id: e, type: redis, uri: 'redis-sentinel://${env:PW}@s1,s2/0#${env:MASTER}'}",
            "  - {id: f, type: redis, uri: 'redis-sentinel://[::1]:26379,[::1]:26380#shard-f'}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:4:31: nodes[2].uri points to the same server as nodes[0] (master shard-a"
                + " of s1:26379,s2:26379,s3:26379/0)");
  }

  @Test
  void parse_duplicateServers_afterNormalisation() {
    String yaml =
        String.join(
            "\n",
            "nodes:",
            "  - {id: a, type: redis, uri: 'redis://Cache-1'}",
            "  - {id: b, type: redis, uri: 'rediss://cache-1:6379/0'}",
            "  - {id: c, type: redis, uri: 'redis://cache-1:6379/1'}",
            "  - {id: d, type: redis, uri: 'redis://${env:U}:${env:PW}@cache-1:6380'}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:31: nodes[1].uri points to the same server as nodes[0]"
                + " (cache-1:6379/0)");
  }

  @Test
  void parse_placeholderPasswords_areAccepted() {
    ChashConfig config =
        ChashConfigs.parse(
            "nodes:\n"
                + "  - {id: a, type: redis, uri: 'redis://${env:PW}@a'}\n"
                + "  - {id: b, type: redis, uri: 'rediss://default:${env:PW}@b:6380/2'}\n"
                + "  - {id: c, type: redis, uri: 'redis://${env:HOST}:${env:PORT}'}\n",
            "chash.yaml");

    assertThat(config.nodes()).hasSize(3);
  }

  @Test
  void parse_cacheChecks() {
    String yaml =
        String.join(
            "\n",
            "nodes: [{id: a}]",
            "caches:",
            "  users: {ttl: 10 minutes}",
            "  orders: {ttl: 0s}",
            "  '': {ttl: 1m}",
            "  'a:b': {ttl: 1m}",
            "  items: {tll: 1m}",
            "  lists: [1]",
            "  old: {ttl: PT10M}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:16: caches.users.ttl must be a duration like 100ms, 30s, 10m, 2h or 1d,"
                + " was \"10 minutes\"",
            "chash.yaml:4:17: caches.orders.ttl must be positive, was \"0s\"",
            "chash.yaml:5:3: cache name must not be empty, was \"\"",
            "chash.yaml:6:3: cache name \"a:b\" must not contain ':'",
            "chash.yaml:7:11: unknown key \"tll\" in caches.items; valid keys: ttl, jitter,"
                + " refreshAhead, nullTtl, keys, codec, near; did you mean \"ttl\"?",
            "chash.yaml:8:10: caches.lists must be a mapping, was a list",
            "chash.yaml:9:14: caches.old.ttl must be a duration like 100ms, 30s, 10m, 2h or 1d, was"
                + " \"PT10M\"");
  }

  @Test
  void parse_cacheAvalancheDefenses_readAsFractions() throws Exception {
    ChashConfig config =
        ChashConfigs.parse(
            String.join(
                "\n",
                "nodes: [{id: a}]",
                "caches:",
                "  users: {ttl: 10m, jitter: 10%, refreshAhead: 20%, nullTtl: 30s}",
                "  plain: {ttl: 1m}",
                "  halves: {ttl: 1m, jitter: 50%, refreshAhead: 2.5%}",
                ""),
            "chash.yaml");

    assertThat(config.caches().get("users"))
        .isEqualTo(
            new CacheConfig(
                "users",
                java.time.Duration.ofMinutes(10),
                0.1,
                0.2,
                java.time.Duration.ofSeconds(30)));
    assertThat(config.caches().get("plain"))
        .isEqualTo(new CacheConfig("plain", java.time.Duration.ofMinutes(1)));
    assertThat(config.caches().get("halves").jitter()).isEqualTo(0.5);
    assertThat(config.caches().get("halves").refreshAhead()).isEqualTo(0.025);
  }

  @Test
  void parse_cacheAvalancheDefenseChecks() {
    String yaml =
        String.join(
            "\n",
            "nodes: [{id: a}]",
            "caches:",
            "  a: {ttl: 10m, jitter: 60%}",
            "  b: {jitter: 10%}",
            "  c: {ttl: 10m, jitter: 0.1}",
            "  d: {ttl: 10m, jitter: -5%}",
            "  e: {ttl: 10m, refreshAhead: 95%}",
            "  f: {refreshAhead: 20%}",
            "  g: {ttl: 1m, nullTtl: 2m}",
            "  h: {ttl: 1m, nullTtl: 0s}",
            "  i: {ttl: 0s, jitter: 10%}",
            "  j: {ttl: 1m, jiter: 10%}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:25: caches.a.jitter must be between 0% and 50%, was 60%",
            "chash.yaml:4:15: caches.b.jitter needs a ttl (it spreads the ttl), and the cache has"
                + " none",
            "chash.yaml:5:25: caches.c.jitter must be a percentage like 10% or 2.5%, was 0.1",
            "chash.yaml:6:25: caches.d.jitter must be between 0% and 50%, was -5%",
            "chash.yaml:7:31: caches.e.refreshAhead must be between 0% and 90%, was 95%",
            "chash.yaml:8:21: caches.f.refreshAhead needs a ttl (it is a part of the ttl), and the"
                + " cache has none",
            "chash.yaml:9:25: caches.g.nullTtl must not be longer than the ttl (\"1m\"), was \"2m\"",
            "chash.yaml:10:25: caches.h.nullTtl must be positive, was \"0s\"",
            "chash.yaml:11:12: caches.i.ttl must be positive, was \"0s\"",
            "chash.yaml:12:16: unknown key \"jiter\" in caches.j; valid keys: ttl, jitter,"
                + " refreshAhead, nullTtl, keys, codec, near; did you mean \"jitter\"?");
  }

  @Test
  void parse_verbatimKeysAndCacheCodecs() throws Exception {
    ChashConfig config =
        ChashConfigs.parse(
            String.join(
                "\n",
                "nodes: [{id: a}]",
                "caches:",
                "  legacy: {ttl: 1h, keys: verbatim, codec: string}",
                "  blobs: {ttl: 1h, keys: verbatim, codec: bytes}",
                "  users: {ttl: 10m, keys: prefixed}",
                ""),
            "chash.yaml");

    CacheConfig legacy = config.caches().get("legacy");
    assertThat(legacy.keys()).isEqualTo(KeyLayout.VERBATIM);
    assertThat(legacy.verbatim()).isTrue();
    assertThat(legacy.codec()).isEqualTo("string");
    assertThat(config.caches().get("blobs").codec()).isEqualTo("bytes");
    assertThat(config.caches().get("users").verbatim()).isFalse();
    assertThat(config.caches().get("users").codec()).isNull();
  }

  @Test
  void parse_verbatimKeysAndCacheCodecChecks() {
    String yaml =
        String.join(
            "\n",
            "nodes: [{id: a}]",
            "caches:",
            "  a: {keys: verbatim}",
            "  b: {ttl: 1h, keys: raw}",
            "  c: {ttl: 1h, codec: utf8}",
            "  d: {ttl: 0s, keys: verbatim}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:13: caches.a.keys verbatim needs a ttl (copies a ring change leaves"
                + " behind are not swept, they expire), and the cache has none",
            "chash.yaml:4:22: caches.b.keys must be one of prefixed, verbatim; was \"raw\"",
            "chash.yaml:5:23: caches.c.codec must be one of jdk, jackson, string, bytes, spymemcached, xmemcached; was"
                + " \"utf8\"",
            "chash.yaml:6:12: caches.d.ttl must be positive, was \"0s\"");
  }

  @Test
  void cacheConfig_verbatimAndCodecRules() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new CacheConfig("legacy", null, 0, 0, null, KeyLayout.VERBATIM, null))
        .hasMessageStartingWith("keys of cache \"legacy\" verbatim needs a ttl");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new CacheConfig("legacy", java.time.Duration.ofHours(1), 0, 0, null, null, "utf8"))
        .hasMessage(
            "codec of cache \"legacy\" must be one of jdk, jackson, string, bytes, spymemcached, xmemcached; was \"utf8\"");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new CacheConfig("le\u0000gacy", java.time.Duration.ofHours(1)))
        .hasMessage("cache name \"le\\u0000gacy\" must not contain control characters");
    assertThat(new CacheConfig("users", null).keys()).isEqualTo(KeyLayout.PREFIXED);
  }

  @Test
  void parse_nearCache() throws Exception {
    ChashConfig config =
        ChashConfigs.parse(
            String.join(
                "\n",
                "nodes: [{id: a}]",
                "caches:",
                "  users: {ttl: 10m, near: {maximumSize: 10000, ttl: 30s}}",
                "  items:",
                "    ttl: 1h",
                "    near: {maximumSize: 500, ttl: 5s, invalidation: ttl}",
                "  plain: {ttl: 1m}",
                ""),
            "chash.yaml");

    assertThat(config.caches().get("users").near())
        .isEqualTo(new NearConfig(10_000, java.time.Duration.ofSeconds(30)));
    assertThat(config.caches().get("users").near().invalidation())
        .isEqualTo(NearInvalidation.SERVER);
    assertThat(config.caches().get("items").near())
        .isEqualTo(new NearConfig(500, java.time.Duration.ofSeconds(5), NearInvalidation.TTL));
    assertThat(config.caches().get("plain").near()).isNull();
  }

  @Test
  void parse_nearCacheChecks() {
    String yaml =
        String.join(
            "\n",
            "nodes: [{id: a}]",
            "caches:",
            "  a: {ttl: 10m, near: {maximumSize: 0, ttl: 30s}}",
            "  b: {ttl: 10m, near: {ttl: 30s}}",
            "  c: {ttl: 10m, near: {maximumSize: 10, ttl: 0s}}",
            "  d: {ttl: 10m, near: {maximumSize: 10, ttl: 1s, invalidation: pubsub}}",
            "  e: {ttl: 10m, near: {maximumSize: 10, ttl: 1s, maxSize: 3}}",
            "  f: {ttl: 1h, keys: verbatim, near: {maximumSize: 10, ttl: 1s}}",
            "  g: {ttl: 10m, near: }",
            "  h: {ttl: 10m, near: 100}",
            "  i: {ttl: 10m, near: {maximumSize: 3000000000, ttl: 1s}}",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:37: caches.a.near.maximumSize must be a positive integer up to"
                + " 2147483647, was 0",
            "chash.yaml:4:23: caches.b.near is missing required key \"maximumSize\", the most"
                + " entries this JVM keeps",
            "chash.yaml:5:46: caches.c.near.ttl must be positive, was \"0s\"",
            "chash.yaml:6:64: caches.d.near.invalidation must be one of server, ttl; was"
                + " \"pubsub\"",
            "chash.yaml:7:50: unknown key \"maxSize\" in caches.e.near; valid keys: maximumSize,"
                + " ttl, invalidation",
            "chash.yaml:8:38: caches.f.near needs a prefixed cache (its changes are tracked by key"
                + " prefix), and the cache is verbatim",
            "chash.yaml:9:22: caches.g.near must be a mapping with maximumSize and ttl, was empty",
            "chash.yaml:10:23: caches.h.near must be a mapping, was 100",
            "chash.yaml:11:37: caches.i.near.maximumSize must be a positive integer up to"
                + " 2147483647, was 3000000000");
  }

  @Test
  void nearConfig_rules() {
    java.time.Duration second = java.time.Duration.ofSeconds(1);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new NearConfig(0, second))
        .hasMessage("near.maximumSize must be a positive integer up to 2147483647, was 0");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new NearConfig(10, java.time.Duration.ZERO))
        .hasMessage("near.ttl must be positive, was \"0ms\"");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new CacheConfig(
                    "legacy",
                    java.time.Duration.ofHours(1),
                    0,
                    0,
                    null,
                    KeyLayout.VERBATIM,
                    null,
                    new NearConfig(10, second)))
        .hasMessage(
            "near of cache \"legacy\" needs a prefixed cache (its changes are tracked by key"
                + " prefix), and the cache is verbatim");
    assertThat(new NearConfig(10, second, null).invalidation()).isEqualTo(NearInvalidation.SERVER);
    CacheConfig users = new CacheConfig("users", second).withNear(new NearConfig(10, second));
    assertThat(users.withTtl(java.time.Duration.ofMinutes(1)).near()).isEqualTo(users.near());
  }

  @Test
  void cacheConfig_avalancheDefenseRules() {
    java.time.Duration tenMinutes = java.time.Duration.ofMinutes(10);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new CacheConfig("users", tenMinutes, 0.51, 0, null))
        .hasMessage("jitter of cache \"users\" must be between 0% and 50%, was 51%");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new CacheConfig("users", null, 0.1, 0, null))
        .hasMessage(
            "jitter of cache \"users\" needs a ttl (it spreads the ttl), and the cache has none");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new CacheConfig("users", tenMinutes, 0, Double.NaN, null))
        .hasMessage("refreshAhead of cache \"users\" must be between 0% and 90%, was NaN");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new CacheConfig("users", tenMinutes, 0, 0, tenMinutes.plusMillis(1)))
        .hasMessageStartingWith("nullTtl of cache \"users\" must not be longer than the ttl");
    assertThat(new CacheConfig("users", null, 0, 0, tenMinutes).nullTtl()).isEqualTo(tenMinutes);
  }

  @Test
  void parse_failoverChecks() {
    assertThat(
            problems(
                "nodes: [{id: a}]\n"
                    + "failover: {failureLimit: 0, retryAfter: 30, timeout: -1s, onRejoin:"
                    + " drop}\n"))
        .containsExactly(
            "chash.yaml:2:26: failover.failureLimit must be a positive integer, was 0",
            "chash.yaml:2:41: failover.retryAfter must be a duration like 100ms, 30s, 10m, 2h or"
                + " 1d, was \"30\"",
            "chash.yaml:2:54: failover.timeout must be a duration like 100ms, 30s, 10m, 2h or 1d,"
                + " was \"-1s\"",
            "chash.yaml:2:69: failover.onRejoin must be one of flush, keep; was \"drop\"");
    assertThat(problems("nodes: [{id: a}]\nfailover: {timeout: 99999999999999999d}\n"))
        .containsExactly(
            "chash.yaml:2:21: failover.timeout is too long, was \"99999999999999999d\"");
  }

  @Test
  void parse_keyPrefixesThatAnotherApplicationsCouldStartWith_areRefused() {
    assertThat(problems("nodes: [{id: a}]\nredis: { keyPrefix: 'app:v2:' }\n"))
        .containsExactly(
            "chash.yaml:2:21: redis.keyPrefix must end with ':' and have no other ':' (one"
                + " segment, such as \"app:\" or \"app-v2:\"), so that no other application's"
                + " prefix can start with it (\"app:\" and \"app:v2:\" would share keys, and one's"
                + " flush would delete the other's); was \"app:v2:\"");
    assertThat(problems("nodes: [{id: a}]\nmemcached: { keyPrefix: 'app' }\n"))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("chash.yaml:2:25: memcached.keyPrefix must end with ':'");
  }

  @Test
  void parse_redisChecks() {
    String yaml =
        String.join(
            "\n",
            "nodes: [{id: a}]",
            "redis:",
            "  keyPrefix: ''",
            "  codec: kryo",
            "  allow: ['*', 'com.example.*;maxdepth=5', {a: 1}, 'com.example.Order']",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:14: redis.keyPrefix must not be empty: onRejoin flush deletes every key"
                + " with this prefix",
            "chash.yaml:4:10: redis.codec must be one of jdk, jackson; was \"kryo\"",
            "chash.yaml:5:11: redis.allow[0] allows every class, was \"*\"; name packages"
                + " (com.example.*) or classes",
            "chash.yaml:5:16: redis.allow[1] must be one class pattern like com.example.* or"
                + " com.example.Order, was \"com.example.*;maxdepth=5\"",
            "chash.yaml:5:44: redis.allow[2] must be a class pattern like com.example.* or"
                + " com.example.Order, was a mapping");
    assertThat(problems("nodes: [{id: a}]\nredis: {allow: com.example.*}\n"))
        .containsExactly(
            "chash.yaml:2:16: redis.allow must be a list of class patterns, was"
                + " \"com.example.*\"");
  }

  @Test
  void parse_checkChecks() {
    String yaml =
        String.join(
            "\n",
            "nodes: [{id: a}]",
            "check:",
            "  maxSkew: 0.9",
            "  sampleKeys: 100000001",
            "  keyPattern: 'users:'",
            "  keysFile: keys.txt",
            "  maxMoved: 0",
            "  maxMovedOverIdeal: 0.5",
            "");

    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:12: check.maxSkew must be at least 1.0 (a node's share / its fair"
                + " share), was 0.9",
            "chash.yaml:4:15: check.sampleKeys must be an integer between 1 and 100000000, was"
                + " 100000001",
            "chash.yaml:5:15: check.keyPattern must contain {n}, was \"users:\"",
            "chash.yaml:6:13: check.keysFile and check.keyPattern exclude each other; keep one",
            "chash.yaml:7:13: check.maxMoved must be a fraction in (0, 1], was 0",
            "chash.yaml:8:22: check.maxMovedOverIdeal must be at least 1.0 (moved keys / the ideal"
                + " minimum), was 0.5");
    assertThat(problems("nodes: [{id: a}]\ncheck: {maxSkew: lots, maxMoved: 1.5, sampleKeys: 0}\n"))
        .containsExactly(
            "chash.yaml:2:18: check.maxSkew must be a number of at least 1.0, was \"lots\"",
            "chash.yaml:2:34: check.maxMoved must be a fraction in (0, 1], was 1.5",
            "chash.yaml:2:51: check.sampleKeys must be an integer between 1 and 100000000, was 0");
  }

  @Test
  void parse_wrongTypes() {
    assertThat(
            problems("nodes: [{id: a, weight: [1]}]\nfailover: 3\ncheck: {keyPattern: {n: 1}}\n"))
        .containsExactly(
            "chash.yaml:1:25: nodes[0].weight must be a positive integer, was a list",
            "chash.yaml:2:11: failover must be a mapping, was 3",
            "chash.yaml:3:21: check.keyPattern must be a non-empty string, was a mapping");
  }

  @Test
  void parse_compatKeyTagsAndNames_checkedWithTheirPositions() {
    String yaml =
        String.join(
            "\n",
            "ring:",
            "  algorithm: ring",
            "  compat: twemproxy",
            "  keyTags: true",
            "nodes:",
            "  - { id: a, name: x }",
            "");
    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:11: ring.compat applies only to algorithm ketama; remove it for ring",
            "chash.yaml:4:12: ring.keyTags applies only to algorithm jedis; remove it for ring",
            "chash.yaml:6:20: nodes[0].name applies only to algorithms ketama and jedis (which name"
                + " a server's points by it); remove it for ring");
  }

  @Test
  void parse_ketamaCompat_badValueAndFixedPoints() {
    assertThat(problems("ring: { algorithm: ketama, compat: twemproxi }\nnodes: [{id: a}]\n"))
        .containsExactly(
            "chash.yaml:1:36: ring.compat must be one of spymemcached, spymemcached-weighted,"
                + " twemproxy, libketama; was \"twemproxi\"");
    assertThat(
            problems(
                "ring: { algorithm: ketama, compat: libketama, pointsPerWeight: 200 }\n"
                    + "nodes: [{id: a}]\n"))
        .containsExactly(
            "chash.yaml:1:64: ring.pointsPerWeight does not apply to ketama compat libketama (it"
                + " always hashes 160 points per server of average weight); remove it");
  }

  @Test
  void parse_jedis_hashKeyTagsAndDuplicateNames() {
    String yaml =
        String.join(
            "\n",
            "ring:",
            "  algorithm: jedis",
            "  hash: xxh3",
            "  keyTags: yes",
            "nodes:",
            "  - { id: a, name: shard-1 }",
            "  - { id: b, name: shard-1 }",
            "  - { id: c, name: \" padded\" }",
            "");
    assertThat(problems(yaml))
        .containsExactly(
            "chash.yaml:3:9: ring.hash does not apply to algorithm jedis (it hashes with"
                + " MurmurHash64A, seed 0x1234ABCD, as Jedis does); remove it",
            "chash.yaml:4:12: ring.keyTags must be one of true, false; was \"yes\"",
            "chash.yaml:7:20: nodes[1].name \"shard-1\" is already used by nodes[0]",
            "chash.yaml:8:20: nodes[2].name must not start or end with white space, was"
                + " \" padded\"");
  }
}
