package io.github.chash.benchmarks.aspect;

import io.github.chash.aspect.ShardedCacheable;

/**
 * The chash side: woven at build time by ajc with chash-aspect. Keys use {@code #p0}: this module
 * is compiled without {@code -parameters}.
 */
public class WovenUserService {
  /** Creates the service. */
  public WovenUserService() {}

  /** The hit path: every key is cached before measuring. */
  @ShardedCacheable(cache = "users", key = "#p0")
  public User find(String id) {
    return new User(id, "user");
  }

  /** The miss path without a store: a null result is not cached, so every call misses. */
  @ShardedCacheable(cache = "misses", key = "#p0")
  public User absent(String id) {
    return null;
  }

  /** The body alone, not advised: the baseline of the miss path. */
  public User absentDirect(String id) {
    return null;
  }
}
