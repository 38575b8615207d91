package io.github.chash.it.demo;

import io.github.chash.aspect.ShardedCacheEvict;
import io.github.chash.aspect.ShardedCacheable;
import java.util.concurrent.atomic.AtomicLong;

/** A user directory whose lookups are cached per user id; renames evict. Thread-safe. */
public class UserDirectory {
  private final AtomicLong lookups = new AtomicLong();

  /** Creates the directory. */
  public UserDirectory() {}

  /** Looks a user up (the slow part a cache saves); cached per id. */
  @ShardedCacheable(cache = "users", key = "#id")
  public String find(long id) {
    lookups.incrementAndGet();
    return "user-" + id;
  }

  /** Renames a user, evicting the cached entry. */
  @ShardedCacheEvict(cache = "users", key = "#id")
  public void rename(long id, String name) {
    // the database update would go here
  }

  /** How often {@link #find} ran its body, that is, missed the cache. */
  public long lookups() {
    return lookups.get();
  }
}
