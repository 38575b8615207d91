package io.github.chash.config;

import java.util.List;
import java.util.Optional;

/** Reads {@code failover:}; its rules are {@link FailoverConfig}'s. */
final class FailoverBlock {
  static final List<String> KEYS =
      List.of("failureLimit", "retryAfter", "timeout", "onRejoin", "fallbackTtl", "promotionWait");

  private FailoverBlock() {}

  /**
   * @param anySentinelShard whether some node is a Sentinel-managed shard, or null when the nodes
   *     could not all be read (their problems are reported already)
   */
  static FailoverConfig read(Optional<YamlMap> block, Boolean anySentinelShard) {
    FailoverConfig d = FailoverConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    Fields f = new Fields(block.get().allowOnly(KEYS));
    int failureLimit =
        (int) f.integer("failureLimit", FailoverConfig.FAILURE_LIMIT, d.failureLimit());
    String onRejoin = f.choice("onRejoin", List.of("flush", "keep"), d.onRejoin().configName());
    String misplaced =
        f.has("promotionWait") && anySentinelShard != null
            ? FailoverConfig.promotionWaitProblem(anySentinelShard)
            : null;
    if (misplaced != null) {
      f.problem("promotionWait", misplaced);
    }
    return new FailoverConfig(
        failureLimit,
        f.duration("retryAfter", d.retryAfter()),
        f.duration("timeout", d.timeout()),
        onRejoin.equals("keep") ? OnRejoin.KEEP : OnRejoin.FLUSH,
        f.duration("fallbackTtl", d.fallbackTtl()),
        misplaced != null
            ? d.promotionWait()
            : f.durationOrZero("promotionWait", d.promotionWait()));
  }
}
