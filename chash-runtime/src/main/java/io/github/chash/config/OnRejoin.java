package io.github.chash.config;

/** What happens to a node's entries when it rejoins the live ring after an ejection. */
public enum OnRejoin {
  /** Delete this library's keys first, so no value written before the outage is served stale. */
  FLUSH("flush"),
  /** Keep the entries: faster warm-up, but values updated during the outage may be served stale. */
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
