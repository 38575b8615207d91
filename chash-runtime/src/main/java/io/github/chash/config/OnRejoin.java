package io.github.chash.config;

/** What happens to a node's entries when it rejoins the live ring after an ejection. */
public enum OnRejoin {
  /**
   * Delete this library's keys on the node first, for every JVM: a fleet-wide act one JVM decides,
   * so never the default.
   */
  FLUSH("flush"),
  /**
   * The default: keep the entries, less the keys this JVM wrote elsewhere or failed to write there
   * during the outage, which are deleted first; a node that never answered this JVM before it was
   * ejected is emptied, as no mark of this JVM vouches for it.
   */
  KEEP("keep");

  private final String configName;

  OnRejoin(String configName) {
    this.configName = configName;
  }

  /** {@return the name used in {@code chash.yaml}} */
  public String configName() {
    return configName;
  }
}
