package io.github.chash.redis;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tracking channels ({@link RedisTracking}) of every manager in this JVM, by the server and key
 * prefix they follow, so that a write of one manager is reported to the near caches of the others
 * as it is made ({@link RedisCacheNode#writing}), not when the server's push arrives on their
 * channels: two Spring contexts of one JVM share event loops, and a read of one could begin after
 * the other's put returned and before its loop read the push, or the close of a killed channel
 * (issue 40: near hits 83-144 ms after the other's put). Thread-safe.
 */
final class LocalChannels {
  private static final ConcurrentHashMap<String, Set<RedisTracking>> BY_SERVER =
      new ConcurrentHashMap<>();

  private LocalChannels() {}

  /** {@return what names a server's keys under a key prefix} */
  static String server(RedisEndpoint endpoint, String keyPrefix) {
    return endpoint + " " + keyPrefix;
  }

  static void add(String server, RedisTracking channel) {
    BY_SERVER.computeIfAbsent(server, s -> ConcurrentHashMap.newKeySet()).add(channel);
  }

  static void remove(String server, RedisTracking channel) {
    BY_SERVER.computeIfPresent(
        server,
        (s, channels) -> {
          channels.remove(channel);
          return channels.isEmpty() ? null : channels;
        });
  }

  /** A manager of this JVM writes the routing key on the server: every channel on it is told. */
  static void writing(String server, String routingKey) {
    Set<RedisTracking> channels = BY_SERVER.get(server);
    if (channels != null) {
      for (RedisTracking channel : channels) {
        channel.writtenHere(routingKey);
      }
    }
  }
}
