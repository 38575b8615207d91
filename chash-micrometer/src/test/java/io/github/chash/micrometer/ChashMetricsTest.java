package io.github.chash.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.chash.cache.ShardedCacheManager;
import io.github.chash.cache.ShardedCaches;
import io.github.chash.config.ChashConfigs;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Outside Spring: one call gives a manager the meters observability.md documents. */
class ChashMetricsTest {
  /**
   * Documented meters a manager of local shards does not have: calls on remote nodes are timed at
   * their first call (a local shard's are counted, not timed), and the ring epoch gauges come from
   * a membership follower, bound on their own.
   */
  private static final Set<String> NOT_A_LOCAL_MANAGERS =
      Set.of(
          "chash.node.calls",
          "chash.ring.epoch",
          "chash.ring.epoch.latest",
          "chash.ring.behind",
          "chash.membership.reachable");

  @Test
  void build_givesTheManagerEveryDocumentedMeter() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (ShardedCacheManager manager =
        ChashMetrics.build(
            ShardedCaches.builder()
                .config(
                    ChashConfigs.parse(
                        "nodes: [{id: a, type: local}, {id: b, type: local}]\n"
                            + "caches: {users: {near: {maximumSize: 10, ttl: 1m}}}\n",
                        "local.yaml")),
            registry)) {
      Set<String> registered =
          registry.getMeters().stream()
              .map(Meter::getId)
              .map(Meter.Id::getName)
              .collect(Collectors.toCollection(TreeSet::new));
      Set<String> expected = documentedMeters();
      expected.removeAll(NOT_A_LOCAL_MANAGERS);

      assertThat(expected).contains("cache.gets", "chash.node.ejection.causes", "chash.near.hits");
      assertThat(registered).containsAll(expected);
      assertThat(manager.cacheNames()).containsExactly("users");
    }
  }

  /** The meter names of observability.md's meter table. */
  private static Set<String> documentedMeters() throws Exception {
    Path page = Path.of("..", "src-site", "markdown", "observability.md");
    Pattern row = Pattern.compile("^\\| `([a-z.]+)` \\| (counter|gauge|timer) \\|");
    Set<String> names = new TreeSet<>();
    for (String line : Files.readAllLines(page)) {
      Matcher m = row.matcher(line);
      if (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }
}
