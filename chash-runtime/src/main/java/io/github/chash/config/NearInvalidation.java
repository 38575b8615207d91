package io.github.chash.config;

/**
 * How a cache's near entries ({@code caches.<name>.near}) learn that a node's copy changed: from
 * the server, or only by their time to live ({@code near.invalidation}).
 */
public enum NearInvalidation {
  /**
   * The default: every node must report changes of this application's keys (Redis 6 and later,
   * through {@code CLIENT TRACKING}); a cache whose nodes include one that cannot (memcached, a
   * Redis shard read from its replicas) is refused at startup. A near entry then goes within about
   * one server-to-client delay of another JVM's write.
   */
  SERVER("server"),
  /**
   * Nodes that report changes are followed as with {@link #SERVER}; on the others a near entry is
   * served until its {@code near.ttl} has passed, however often other JVMs write the key: {@code
   * near.ttl} is the staleness the user accepts there. Writes in this JVM still drop its entry at
   * once.
   */
  TTL("ttl");

  private final String configName;

  NearInvalidation(String configName) {
    this.configName = configName;
  }

  /** {@return the name used in {@code chash.yaml}} */
  public String configName() {
    return configName;
  }

  /** {@return the setting named {@code name} in {@code chash.yaml}, or null when none is} */
  static NearInvalidation named(String name) {
    for (NearInvalidation n : values()) {
      if (n.configName.equals(name)) {
        return n;
      }
    }
    return null;
  }
}
