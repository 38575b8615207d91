package io.github.chash.config;

import io.github.chash.ring.Algorithm;
import io.github.chash.ring.RingSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;

/** Reads a whole {@code chash.yaml} into a {@link ChashConfig}, collecting every problem. */
final class ConfigReader {
  static final List<String> KEYS =
      List.of("ring", "nodes", "caches", "failover", "migration", "redis", "memcached", "check");

  /** Most virtual points of a ring or ketama ring: 20 million points take 160 MB. */
  static final long MAX_TOTAL_POINTS = RingSettings.MAX_TOTAL_POINTS;

  private ConfigReader() {}

  static ChashConfig read(String yaml, String sourceName) {
    Problems problems = new Problems(sourceName);
    Optional<Node> root = YamlComposer.compose(yaml, problems);
    problems.throwIfAny();
    Optional<YamlMap> top = YamlMap.root(root.orElseThrow(), problems);
    problems.throwIfAny();
    YamlMap map = top.orElseThrow().allowOnly(KEYS);

    RingBlock.Values ring = RingBlock.read(block(map, "ring"));
    Optional<Node> nodesValue = map.require("nodes", null);
    int problemsBefore = problems.count();
    List<NodeConfig> nodes =
        nodesValue.map(n -> NodesBlock.read(n, ring.algorithm(), problems)).orElse(List.of());
    // a node left out for its problems might have been a Sentinel shard: no guess about it
    Boolean anySentinelShard =
        nodesValue.isPresent() && problems.count() == problemsBefore
            ? nodes.stream().anyMatch(NodeConfig::isSentinelShard)
            : null;
    nodesValue.ifPresent(n -> checkPoints(ring, nodes, n, problems));
    Map<String, CacheConfig> caches = CachesBlock.read(block(map, "caches"));
    FailoverConfig failover = FailoverBlock.read(block(map, "failover"), anySentinelShard);
    MigrationConfig migration =
        MigrationBlock.read(block(map, "migration"), nodes, ring.algorithm());
    RedisConfig redis = RedisConfig.RULES.read(block(map, "redis"));
    MemcachedConfig memcached = MemcachedConfig.RULES.read(block(map, "memcached"));
    CheckConfig check = CheckBlock.read(block(map, "check"));
    problems.throwIfAny();
    return ChashConfig.parsed(
        sourceName,
        ring.toSettings(),
        nodes,
        caches,
        failover,
        migration,
        redis,
        memcached,
        check,
        Locations.of(root.orElseThrow(), sourceName));
  }

  /** A ring's virtual points cost 8 bytes each in every JVM that builds it; keep that sane. */
  private static void checkPoints(
      RingBlock.Values ring, List<NodeConfig> nodes, Node where, Problems problems) {
    Algorithm algorithm = ring.algorithm();
    if (algorithm != Algorithm.RING
        && algorithm != Algorithm.KETAMA
        && algorithm != Algorithm.JEDIS) {
      return;
    }
    long perWeight =
        ring.pointsPerWeight() != null
            ? ring.pointsPerWeight()
            : algorithm == Algorithm.RING
                ? RingSettings.DEFAULT_RING_POINTS
                : RingSettings.DEFAULT_KETAMA_POINTS;
    // ketama scales weights to the average, so its total depends on the node count only.
    long units =
        algorithm == Algorithm.KETAMA
            ? nodes.size()
            : nodes.stream().mapToLong(NodeConfig::weight).sum();
    long total = units * perWeight;
    if (total > MAX_TOTAL_POINTS) {
      problems.at(
          where,
          "the ring would need "
              + total
              + " virtual points ("
              + (algorithm == Algorithm.KETAMA ? "nodes" : "sum of weights")
              + (algorithm == Algorithm.JEDIS ? " x 160" : " x pointsPerWeight")
              + "); at most "
              + MAX_TOTAL_POINTS
              + " are allowed: lower "
              + (algorithm == Algorithm.JEDIS
                  ? "the weights"
                  : "ring.pointsPerWeight or the weights"));
    }
  }

  private static Optional<YamlMap> block(YamlMap map, String key) {
    return map.get(key).flatMap(n -> YamlMap.of(n, key, map.problems()));
  }
}
