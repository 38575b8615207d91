package io.github.chash.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;

/** Reads a whole {@code chash.yaml} into a {@link ChashConfig}, collecting every problem. */
final class ConfigReader {
  static final List<String> KEYS = List.of("ring", "nodes", "caches", "failover", "redis", "check");

  private ConfigReader() {}

  static ChashConfig read(String yaml, String sourceName) {
    Problems problems = new Problems(sourceName);
    Optional<Node> root = YamlComposer.compose(yaml, problems);
    problems.throwIfAny();
    Optional<YamlMap> top = YamlMap.root(root.orElseThrow(), problems);
    problems.throwIfAny();
    YamlMap map = top.orElseThrow().allowOnly(KEYS);

    RingBlock.Values ring = RingBlock.read(block(map, "ring"));
    List<NodeConfig> nodes =
        map.require("nodes", null).map(n -> NodesBlock.read(n, problems)).orElse(List.of());
    Map<String, CacheConfig> caches = CachesBlock.read(block(map, "caches"));
    FailoverConfig failover = FailoverBlock.read(block(map, "failover"));
    RedisConfig redis = RedisBlock.read(block(map, "redis"));
    CheckConfig check = CheckBlock.read(block(map, "check"));
    problems.throwIfAny();
    return new ChashConfig(sourceName, ring.toSettings(), nodes, caches, failover, redis, check);
  }

  private static Optional<YamlMap> block(YamlMap map, String key) {
    return map.get(key).flatMap(n -> YamlMap.of(n, key, map.problems()));
  }
}
