package io.github.chash.config;

/**
 * Where a Redis node's reads go ({@code nodes[].readFrom}). Writes always go to the primary.
 *
 * <p>Only a Sentinel-managed shard ({@code redis-sentinel://}) has replicas to read from; a plain
 * server is its own primary, so a replica preference there is refused.
 */
public enum ReadFrom {
  /** Every read from the shard's primary: never stale. The default. */
  PRIMARY("primary"),

  /**
   * Reads from a replica while one is up (else the primary), except reads of a key this JVM wrote
   * until the replicas' replication offsets (read every {@code replicaLag}) show they all have the
   * write, which go to the primary. A key written by another JVM may be read up to the replication
   * lag stale.
   */
  REPLICA_PREFERRED("replicaPreferred");

  private final String configName;

  ReadFrom(String configName) {
    this.configName = configName;
  }

  /** {@return the name used in {@code chash.yaml}} */
  public String configName() {
    return configName;
  }
}
