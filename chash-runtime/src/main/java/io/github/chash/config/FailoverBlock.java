package io.github.chash.config;

import java.util.List;
import java.util.Optional;

/** Reads and checks {@code failover:}. */
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
        (int)
            f.integer("failureLimit", 1, Integer.MAX_VALUE, "a positive integer", d.failureLimit());
    String onRejoin = f.choice("onRejoin", List.of("flush", "keep"), d.onRejoin().configName());
    return new FailoverConfig(
        failureLimit,
        f.duration("retryAfter", d.retryAfter()),
        f.duration("timeout", d.timeout()),
        onRejoin.equals("keep") ? OnRejoin.KEEP : OnRejoin.FLUSH,
        f.duration("fallbackTtl", d.fallbackTtl()));
  }
}
