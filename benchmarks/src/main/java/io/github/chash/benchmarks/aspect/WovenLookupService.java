package io.github.chash.benchmarks.aspect;

import io.github.chash.aspect.ShardedCacheable;

/**
 * The woven side of {@link HitPathBenchmark}: one {@code @ShardedCacheable(key = "#p0")} method per
 * key shape, all in cache {@code users}. The shapes' canonical forms cannot collide: ids are
 * decimal, names start with {@code u}, accounts are {@code (region,id)}.
 */
public class WovenLookupService {
  /** Creates the service. */
  public WovenLookupService() {}

  /** A numeric id, the common key of services (issue 18). */
  @ShardedCacheable(cache = "users", key = "#p0")
  public String find(long id) {
    return HitPathBenchmark.value(id);
  }

  /** A string key. */
  @ShardedCacheable(cache = "users", key = "#p0")
  public String findByName(String name) {
    return "user " + name;
  }

  /** A record key. */
  @ShardedCacheable(cache = "users", key = "#p0")
  public String findByAccount(Account account) {
    return HitPathBenchmark.value(account.id());
  }
}
