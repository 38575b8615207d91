/**
 * A Redis user's application: it requires chash's Redis module (an automatic module) for its nodes
 * and the runtime (which chash-redis brings) for the cache's API; no add-reads flag.
 */
module io.github.chash.it.redisonly {
  requires transitive io.github.chash.runtime;
  requires io.github.chash.redis;

  exports io.github.chash.it.redisonly;
}
