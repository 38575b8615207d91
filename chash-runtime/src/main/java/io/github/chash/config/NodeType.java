package io.github.chash.config;

/** Where a node keeps its entries. */
public enum NodeType {
  /** An in-process Caffeine shard. */
  LOCAL("local"),
  /** A Redis (or Valkey) server. */
  REDIS("redis"),
  /** A memcached server. */
  MEMCACHED("memcached");

  private final String configName;

  NodeType(String configName) {
    this.configName = configName;
  }

  /** {@return the name used in {@code chash.yaml}} */
  public String configName() {
    return configName;
  }
}
