package io.github.chash.config;

import java.util.List;
import java.util.Optional;

/** Reads {@code failover:}; its rules are {@link FailoverConfig}'s. */
final class FailoverBlock {
  static final List<String> KEYS =
      List.of("failureLimit", "retryAfter", "timeout", "onRejoin", "fallbackTtl");

  private FailoverBlock() {}

  static FailoverConfig read(Optional<YamlMap> block) {
    FailoverConfig d = FailoverConfig.defaults();
    if (block.isEmpty()) {
      return d;
    }
    Fields f = new Fields(block.get().allowOnly(KEYS));
    int failureLimit =
        (int) f.integer("failureLimit", FailoverConfig.FAILURE_LIMIT, d.failureLimit());
    String onRejoin = f.choice("onRejoin", List.of("flush", "keep"), d.onRejoin().configName());
    return new FailoverConfig(
        failureLimit,
        f.duration("retryAfter", d.retryAfter()),
        f.duration("timeout", d.timeout()),
        onRejoin.equals("keep") ? OnRejoin.KEEP : OnRejoin.FLUSH,
        f.duration("fallbackTtl", d.fallbackTtl()));
  }
}
