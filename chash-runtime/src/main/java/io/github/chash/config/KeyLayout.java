package io.github.chash.config;

/** How a cache stores and hashes its keys ({@code caches.<name>.keys}). */
public enum KeyLayout {
  /**
   * The default: the node block's {@code keyPrefix}, the cache name and the key ({@code
   * chash:users:42}); the ring hashes {@code users:42}. Each cache's keys are its own, so clear,
   * flush and sweeps list them by prefix.
   */
  PREFIXED("prefixed"),
  /**
   * Exactly the key the application gives, stored and hashed as given ({@code user:42}), to read
   * and write the entries a peer client (ShardedJedis, spymemcached, twemproxy) wrote. chash cannot
   * tell such keys from another application's, so it never lists or deletes them in bulk.
   */
  VERBATIM("verbatim");

  private final String configName;

  KeyLayout(String configName) {
    this.configName = configName;
  }

  /** {@return the name used in {@code chash.yaml}} */
  public String configName() {
    return configName;
  }

  /** {@return the layout named {@code name} in {@code chash.yaml}, or null when none is} */
  static KeyLayout named(String name) {
    for (KeyLayout k : values()) {
      if (k.configName.equals(name)) {
        return k;
      }
    }
    return null;
  }
}
